"""The Littlest JupyterHub (one VM) for a class taking the course: copy into /opt/tljh/config/jupyterhub_config.d/.

A sample; see docs/deploy.md for the whole installation. TLJH already runs every user's server as a Unix
account of their own (jupyter-<name>, systemd-spawner), so nbgrader's exchange permissions keep students apart.
The course is installed into TLJH's user environment (`sudo /opt/tljh/user/bin/pip install "/srv/course[hub]"`)
and the repository kept at /srv/course.
"""

c = get_config()  # noqa: F821 (provided by traitlets when JupyterHub loads this file)

COURSE = "/srv/course/deploy/hub/jupyter"
INSTRUCTORS = {"instructor"}  # hub user names with formgrader; `tljh-config add-item users.admin` for hub admins


def course_role(spawner) -> None:
    """Students: the Assignments list and Validate; instructors: also formgrader and Create Assignment."""
    role = "instructor" if spawner.user.name in INSTRUCTORS else "student"
    spawner.environment["JUPYTER_CONFIG_PATH"] = f"{COURSE}/{role}:{COURSE}/common"
    spawner.environment["COURSE_HUB_EXCHANGE"] = "/srv/nbgrader/exchange"
    spawner.environment["COURSE_HUB_COURSE_ID"] = "pytorch-tensors-autograd"


c.Spawner.pre_spawn_hook = course_role
c.Spawner.default_url = "/lab"
