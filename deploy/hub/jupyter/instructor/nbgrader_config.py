"""nbgrader settings for an instructor's server on the hub: the course folder is ~/course.

The course's own nbgrader_config.py (copied from the repository) is loaded from there by nbgrader.
"""

import os
import pwd

c = get_config()  # noqa: F821 (provided by traitlets when nbgrader loads this file)

c.CourseDirectory.root = os.path.join(os.path.expanduser("~"), "course")

# With local accounts every submission belongs to the one Unix account, so nbgrader's check that the
# submitting account owns the submission would warn on each one; real accounts keep the check.
_user = os.environ.get("JUPYTERHUB_USER")
if _user and _user != pwd.getpwuid(os.getuid()).pw_name:
    c.CollectApp.check_owner = False

# `nbgrader collect` copies regular files only: a link a student leaves in the inbound folder (to the
# instructor's source notebook, a classmate's submission, /dev/zero) is never followed (docs/deploy.md).
c.ExchangeFactory.collect = "autograder.exchange.SafeCollect"
