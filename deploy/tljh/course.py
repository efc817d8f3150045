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

# The grading service (docs/deploy.md, "Hidden-test checks on demand"): students ask for the hidden-test verdict
# of their own saved notebook. The hub (root on TLJH) starts it; it reads /home/jupyter-<name> and the
# instructor's course in /srv/grader/course (mode 0700, root's: students cannot read source/).
GRADER = "grader"
GRADER_URL = "http://127.0.0.1:8002"
c.JupyterHub.services.append(
    {
        "name": GRADER,
        "url": GRADER_URL,
        "command": ["/opt/tljh/user/bin/python", "-m", "autograder.service"],
        "environment": {
            "COURSE_GRADER_COURSE": "/srv/grader/course",
            "COURSE_GRADER_HOMES": "/home/jupyter-{username}",
            "COURSE_GRADER_STATE": "/srv/grader/state",
            "COURSE_GRADER_INSTRUCTORS": ",".join(sorted(INSTRUCTORS)),
            "COURSE_GRADER_PER_HOUR": "6",
            "COURSE_GRADER_COOLDOWN_S": "120",
            "COURSE_GRADER_WORKERS": "2",
        },
    }
)
c.JupyterHub.load_roles.append({"name": "user", "scopes": ["self", f"access:services!service={GRADER}"]})
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", f"access:services!service={GRADER}"]


def grader_address(spawner) -> None:
    spawner.environment["COURSE_GRADER_URL"] = f"{GRADER_URL}/services/{GRADER}/"


def course_spawn(spawner) -> None:
    course_role(spawner)
    grader_address(spawner)


c.Spawner.pre_spawn_hook = course_spawn
