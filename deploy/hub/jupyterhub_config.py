"""JupyterHub for a class taking the course, with nbgrader's exchange: `make hub` starts it on 127.0.0.1.

Every setting comes from an environment variable with a default, so that `make hub`, the tests
(tests/hub) and a real machine use this one file:

    COURSE_HUB_STATE         folder for the hub's database, cookie secret, password and (local accounts) homes
                             (default ~/.local/state/pytorch-course-hub)
    COURSE_HUB_EXCHANGE      nbgrader's exchange root (default STATE/exchange; /srv/nbgrader/exchange for real use)
    COURSE_HUB_PORT          the hub's public port on 127.0.0.1 (8000); COURSE_HUB_HUB_PORT (8081) and
                             COURSE_HUB_PROXY_API_PORT (8001) are its internal ones, also on 127.0.0.1
    COURSE_HUB_INSTRUCTORS   comma-separated accounts with formgrader (default: instructor)
    COURSE_HUB_STUDENTS      comma-separated student accounts (default: alice,bob)
    COURSE_HUB_ACCOUNTS      "local" (default): a local trial and the tests. One Unix account (whoever runs the
                             hub) serves every hub user, each with a home under STATE/home and one shared
                             password (JupyterHub's SharedPasswordAuthenticator; COURSE_HUB_PASSWORD, else a
                             random one written to STATE/password). Nobody is kept apart from anybody: a trial.
                             "system": real use on one machine. The hub runs as root, each hub user is a Unix
                             account (useradd), logs in with that account's password (PAM) and gets a server
                             running as that account in /home/<name> (LocalProcessSpawner), so the exchange's
                             file permissions keep students apart, as nbgrader expects.
    COURSE_HUB_GRADER_PORT   the grading service's port on 127.0.0.1 (8002); its limits: COURSE_GRADER_* (see
                             autograder/service/config.py), passed on to it as the hub gets them
    COURSE_HUB_API_TOKEN     optional: a token for the "course-admin" service, which may start, stop and use
                             every user's server through the hub's REST API (scripts and tests)

Roles: each user's server gets JUPYTER_CONFIG_PATH=deploy/hub/jupyter/<role>:deploy/hub/jupyter/common, which
turns nbgrader's extensions on per role (students: the Assignments list and Validate; instructors: also
formgrader, the course list and Create Assignment) and configures nbgrader (exchange, course id, course root).
The instructor's course folder is ~/course, copied from this repository at the first start of their server.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (provided by traitlets when JupyterHub loads this file)

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BIN = Path(sys.executable).parent  # the venv that runs the hub also runs every user's server and kernels
COURSE_ID = "pytorch-tensors-autograd"  # as in the repository's nbgrader_config.py
COURSE_FILES = ["nbgrader_config.py", "source", "release"]


def _names(variable: str, default: str) -> list[str]:
    return [name.strip() for name in os.environ.get(variable, default).split(",") if name.strip()]


STATE = Path(os.environ.get("COURSE_HUB_STATE", Path.home() / ".local" / "state" / "pytorch-course-hub"))
EXCHANGE = Path(os.environ.get("COURSE_HUB_EXCHANGE", STATE / "exchange"))
ACCOUNTS = os.environ.get("COURSE_HUB_ACCOUNTS", "local")
INSTRUCTORS = _names("COURSE_HUB_INSTRUCTORS", "instructor")
STUDENTS = _names("COURSE_HUB_STUDENTS", "alice,bob")
if ACCOUNTS not in ("local", "system"):
    raise ValueError(f"COURSE_HUB_ACCOUNTS must be 'local' or 'system', not {ACCOUNTS!r}")

# nbgrader's exchange: one folder every user can write, as nbgrader's documentation sets it up
# (mkdir -p /srv/nbgrader/exchange && chmod ugo+rw /srv/nbgrader/exchange). nbgrader itself creates the
# course's outbound/inbound/feedback folders in it, with their own modes, at the first release.
STATE.mkdir(parents=True, exist_ok=True, mode=0o700)
EXCHANGE.mkdir(parents=True, exist_ok=True)
EXCHANGE.chmod(0o777)

# ---------------------------------------------------------------------------------------------------
# Network: everything on loopback

c.JupyterHub.bind_url = f"http://127.0.0.1:{int(os.environ.get('COURSE_HUB_PORT', 8000))}"
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{int(os.environ.get('COURSE_HUB_HUB_PORT', 8081))}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{int(os.environ.get('COURSE_HUB_PROXY_API_PORT', 8001))}"
_proxy = shutil.which("configurable-http-proxy", path=os.pathsep.join([str(BIN), os.environ.get("PATH", "")]))
c.ConfigurableHTTPProxy.command = [_proxy or "configurable-http-proxy"]  # `make hub-proxy` installs it in .venv
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
c.Spawner.ip = "127.0.0.1"

c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every user's server

# ---------------------------------------------------------------------------------------------------
# Accounts

c.Authenticator.allowed_users = set(INSTRUCTORS + STUDENTS)
if ACCOUNTS == "local":
    c.JupyterHub.authenticator_class = "shared-password"
    _password_file = STATE / "password"
    _password = os.environ.get("COURSE_HUB_PASSWORD")
    if not _password:
        if not _password_file.exists():
            _password_file.write_text(secrets.token_urlsafe(12) + "\n", encoding="utf-8")
            _password_file.chmod(0o600)
        _password = _password_file.read_text(encoding="utf-8").strip()
    c.SharedPasswordAuthenticator.user_password = _password
    c.JupyterHub.spawner_class = "simple"  # SimpleLocalProcessSpawner: every server runs as this Unix account
    c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "home" / "{username}")
else:
    c.JupyterHub.authenticator_class = "pam"
    c.JupyterHub.spawner_class = "localprocess"  # servers run as the user's own Unix account
    c.LocalProcessSpawner.create_system_users = False  # accounts are made with useradd, see docs/deploy.md

# ---------------------------------------------------------------------------------------------------
# The grading service (autograder.service): a student asks for the hidden-test verdict of their own saved
# notebook, under the instructor's limits. The hub starts it; it answers only hub tokens that carry
# access:services!service=grader, which every user's role and every server's token get below.

GRADER = "grader"
GRADER_PORT = int(os.environ.get("COURSE_HUB_GRADER_PORT", 8002))
GRADER_URL = f"http://127.0.0.1:{GRADER_PORT}"
_homes = str(STATE / "home" / "{username}") if ACCOUNTS == "local" else "/home/{username}"
_grader_env = {
    "PYTHONPATH": str(REPO),
    "PATH": os.pathsep.join([str(BIN), "/usr/local/bin", "/usr/bin", "/bin"]),
    "COURSE_GRADER_COURSE": os.environ.get("COURSE_GRADER_COURSE", str(REPO)),  # source/: read by the service only
    "COURSE_GRADER_HOMES": _homes,
    "COURSE_GRADER_STATE": str(STATE / GRADER),
    "COURSE_GRADER_INSTRUCTORS": ",".join(INSTRUCTORS),
}
# the instructor's limits and sizes (autograder/service/config.py lists them), as the hub was given them
_grader_env.update({k: v for k, v in os.environ.items() if k.startswith("COURSE_GRADER_") and k != "COURSE_GRADER_URL"})
_grader_env.update({k: os.environ[k] for k in ("COURSE_DATA_DIR", "LANG", "LC_ALL", "TZ") if k in os.environ})
c.JupyterHub.services = [
    {
        "name": GRADER,
        "url": GRADER_URL,
        "command": [str(BIN / "python"), "-m", "autograder.service"],
        "cwd": str(STATE),
        "environment": _grader_env,
    }
]
c.JupyterHub.load_roles = [{"name": "user", "scopes": ["self", f"access:services!service={GRADER}"]}]
# a server's own token ($JUPYTERHUB_API_TOKEN in its kernels and terminals) may ask the grading service too
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", f"access:services!service={GRADER}"]

_token = os.environ.get("COURSE_HUB_API_TOKEN")
if _token:
    c.JupyterHub.services.append({"name": "course-admin", "api_token": _token})
    c.JupyterHub.load_roles.append(
        {
            "name": "course-admin",
            "scopes": ["admin:users", "admin:servers", "access:servers", "read:users", "tokens"],
            "services": ["course-admin"],
        }
    )

# ---------------------------------------------------------------------------------------------------
# Each user's server: this venv's JupyterLab and kernels, nbgrader configured per role


def role(name: str) -> str:
    """``instructor`` or ``student``: what a hub user may do in the course."""
    return "instructor" if name in INSTRUCTORS else "student"


def config_path(spawner) -> str:
    return os.pathsep.join(str(HERE / "jupyter" / folder) for folder in (role(spawner.user.name), "common"))


def copy_course(spawner) -> None:
    """An instructor's first start: copy the course (config, source/, release/) into ~/course, theirs to keep."""
    if role(spawner.user.name) != "instructor":
        return
    if ACCOUNTS == "local":
        home = Path(spawner.home_dir)
        owner = None
    else:
        account = pwd.getpwnam(spawner.user.name)
        home, owner = Path(account.pw_dir), (account.pw_uid, account.pw_gid)
    course = home / "course"
    if course.exists():
        return
    course.mkdir(parents=True)
    for name in COURSE_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, course / name, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        else:
            shutil.copy2(source, course / name)
    if owner is not None:
        for path in [course, *course.rglob("*")]:
            os.chown(path, *owner)


c.Spawner.pre_spawn_hook = copy_course
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.environment = {
    # nbgrader's formgrader runs `alembic` from PATH; kernels are this venv's python
    "PATH": os.pathsep.join([str(BIN), "/usr/local/bin", "/usr/bin", "/bin"]),
    "JUPYTER_CONFIG_PATH": config_path,
    "COURSE_HUB_EXCHANGE": str(EXCHANGE),
    "COURSE_HUB_COURSE_ID": COURSE_ID,
    "COURSE_GRADER_URL": f"{GRADER_URL}/services/{GRADER}/",  # course.check_with_hidden_tests(), check --hub
    "PYTHONPATH": str(REPO),  # this checkout's course and autograder, in kernels and terminals
}
c.Spawner.env_keep = ["LANG", "LC_ALL", "COURSE_DATA_DIR", "TZ"]
# JupyterLab's settings for everyone (Markdown opens rendered, as in `make lab`; no prompt about news)
c.Spawner.args = [f"--LabApp.app_settings_dir={HERE / 'jupyter' / 'lab-settings'}"]
if os.geteuid() == 0 and ACCOUNTS == "local":
    c.Spawner.args.append("--allow-root")  # containers and CI run everything as root
c.Spawner.start_timeout = 120  # a 2-core machine starting JupyterLab for several users at once
c.Spawner.http_timeout = 120

if ACCOUNTS == "local":
    print(
        f"course hub: http://127.0.0.1:{int(os.environ.get('COURSE_HUB_PORT', 8000))}"
        f"  instructors: {', '.join(INSTRUCTORS)}  students: {', '.join(STUDENTS)}"
        f"  password: {'$COURSE_HUB_PASSWORD' if os.environ.get('COURSE_HUB_PASSWORD') else _password_file}"
        f"  state: {STATE}",
        file=sys.stderr,
    )
