"""nbgrader settings for a student's server on the hub.

nbgrader names a submission after the Unix account that makes it. With local accounts (one Unix account
serving every hub user) that would be the same name for everybody, so the hub user's name is used instead.
"""

import os
import pwd

c = get_config()  # noqa: F821 (provided by traitlets when nbgrader loads this file)

_user = os.environ.get("JUPYTERHUB_USER")
if _user and _user != pwd.getpwuid(os.getuid()).pw_name:
    c.CourseDirectory.student_id = _user
