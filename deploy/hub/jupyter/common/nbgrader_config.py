"""nbgrader settings every hub user shares (students and instructors): the exchange and the course id.

The hub sets COURSE_HUB_EXCHANGE and COURSE_HUB_COURSE_ID in each user's server (deploy/hub/jupyterhub_config.py).
"""

import os

c = get_config()  # noqa: F821 (provided by traitlets when nbgrader loads this file)

c.Exchange.root = os.environ.get("COURSE_HUB_EXCHANGE", "/srv/nbgrader/exchange")
c.CourseDirectory.course_id = os.environ.get("COURSE_HUB_COURSE_ID", "pytorch-tensors-autograd")
