"""The hub's configuration files parse and say what docs/deploy.md says: both account modes of
deploy/hub/jupyterhub_config.py, the role folders, and the TLJH and zero-to-jupyterhub samples."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from traitlets.config import Config, PyFileConfigLoader

from tests.hub.hub import CONFIG, ROOT

DEPLOY = ROOT / "deploy"
ROLES = DEPLOY / "hub" / "jupyter"


def _load(path: Path) -> Config:
    return PyFileConfigLoader(path.name, str(path.parent)).load_config()


def _spawner(name: str, groups: tuple[str, ...] = ()) -> SimpleNamespace:
    user = SimpleNamespace(name=name, groups=[SimpleNamespace(name=g) for g in groups])
    return SimpleNamespace(user=user, environment={})


def _role_folders(value: str) -> list[Path]:
    folders = [Path(p.replace("/srv/course", str(ROOT))) for p in value.split(":")]
    assert all(folder.is_dir() for folder in folders), folders
    return folders


@pytest.fixture
def hub_env(tmp_path, monkeypatch):
    monkeypatch.setenv("COURSE_HUB_STATE", str(tmp_path / "state"))
    monkeypatch.setenv("COURSE_HUB_EXCHANGE", str(tmp_path / "exchange"))
    monkeypatch.setenv("COURSE_HUB_INSTRUCTORS", "prof")
    monkeypatch.setenv("COURSE_HUB_STUDENTS", "ann,ben")
    monkeypatch.delenv("COURSE_HUB_API_TOKEN", raising=False)
    return tmp_path


def test_local_accounts_share_one_password_and_one_unix_account_on_loopback(hub_env, monkeypatch):
    monkeypatch.setenv("COURSE_HUB_PASSWORD", "a-trial-password")
    c = _load(CONFIG)
    assert c.JupyterHub.authenticator_class == "shared-password"
    assert c.SharedPasswordAuthenticator.user_password == "a-trial-password"
    assert c.JupyterHub.spawner_class == "simple"
    assert c.Authenticator.allowed_users == {"prof", "ann", "ben"}
    assert c.JupyterHub.bind_url.startswith("http://127.0.0.1:")
    assert c.JupyterHub.hub_bind_url.startswith("http://127.0.0.1:")
    assert c.ConfigurableHTTPProxy.api_url.startswith("http://127.0.0.1:")
    assert oct((hub_env / "exchange").stat().st_mode & 0o777) == oct(0o777)  # as nbgrader's docs set it up
    path = c.Spawner.environment["JUPYTER_CONFIG_PATH"]
    assert _role_folders(path(_spawner("ann"))) == [ROLES / "student", ROLES / "common"]
    assert _role_folders(path(_spawner("prof"))) == [ROLES / "instructor", ROLES / "common"]


def test_without_a_password_the_hub_makes_one_and_keeps_it_private(hub_env, monkeypatch):
    monkeypatch.delenv("COURSE_HUB_PASSWORD", raising=False)
    first = _load(CONFIG).SharedPasswordAuthenticator.user_password
    stored = hub_env / "state" / "password"
    assert len(first) >= 8 and stored.read_text().strip() == first
    assert stored.stat().st_mode & 0o077 == 0
    assert _load(CONFIG).SharedPasswordAuthenticator.user_password == first  # the same on the next start


def test_system_accounts_log_in_through_pam_and_run_as_their_own_unix_account(hub_env, monkeypatch):
    monkeypatch.setenv("COURSE_HUB_ACCOUNTS", "system")
    c = _load(CONFIG)
    assert c.JupyterHub.authenticator_class == "pam"
    assert c.JupyterHub.spawner_class == "localprocess"
    assert "SharedPasswordAuthenticator" not in c


def test_an_unknown_account_mode_is_refused_with_its_name(hub_env, monkeypatch):
    monkeypatch.setenv("COURSE_HUB_ACCOUNTS", "ldap")
    with pytest.raises(ValueError, match="COURSE_HUB_ACCOUNTS must be 'local' or 'system', not 'ldap'"):
        _load(CONFIG)


def test_role_folders_turn_formgrader_off_for_students_only():
    student = json.loads((ROLES / "student" / "jupyter_server_config.json").read_text())
    instructor = json.loads((ROLES / "instructor" / "jupyter_server_config.json").read_text())
    assert student["ServerApp"]["jpserver_extensions"]["nbgrader.server_extensions.formgrader"] is False
    assert student["ServerApp"]["jpserver_extensions"]["nbgrader.server_extensions.assignment_list"] is True
    assert all(instructor["ServerApp"]["jpserver_extensions"].values())
    lab = json.loads((ROLES / "student" / "labconfig" / "page_config.json").read_text())["disabledExtensions"]
    assert set(lab) == {f"@jupyter/nbgrader:{p}" for p in ("formgrader", "course-list", "create-assignment")}
    for folder in ("common", "student", "instructor"):
        _load(ROLES / folder / "nbgrader_config.py")
    json.loads((ROLES / "lab-settings" / "overrides.json").read_text())


def test_tljh_sample_gives_each_server_its_role_and_the_shared_exchange():
    c = _load(DEPLOY / "tljh" / "course.py")
    for name, role in [("instructor", "instructor"), ("ann", "student")]:
        spawner = _spawner(name)
        c.Spawner.pre_spawn_hook(spawner)
        assert _role_folders(spawner.environment["JUPYTER_CONFIG_PATH"]) == [ROLES / role, ROLES / "common"]
        assert spawner.environment["COURSE_HUB_EXCHANGE"] == "/srv/nbgrader/exchange"


def test_z2jh_sample_mounts_one_exchange_volume_in_every_pod_and_sets_roles_by_group():
    values = yaml.safe_load((DEPLOY / "k8s" / "z2jh-values.yaml").read_text())
    single = values["singleuser"]
    volumes = {v["name"]: v for v in single["storage"]["extraVolumes"]}
    mounts = {m["name"]: m for m in single["storage"]["extraVolumeMounts"]}
    assert "persistentVolumeClaim" in volumes["nbgrader-exchange"]
    assert mounts["nbgrader-exchange"]["mountPath"] == single["extraEnv"]["COURSE_HUB_EXCHANGE"]
    assert single["extraEnv"]["COURSE_HUB_COURSE_ID"] == "pytorch-tensors-autograd"
    assert single["defaultUrl"] == "/lab"
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"]
    c = Config()
    exec(compile(values["hub"]["extraConfig"]["course-roles"], "course-roles", "exec"), {"c": c})
    for groups, role in [(("pytorch-course-staff",), "instructor"), (("pytorch-course-students",), "student")]:
        spawner = _spawner("someone", groups)
        c.KubeSpawner.pre_spawn_hook(spawner)
        assert _role_folders(spawner.environment["JUPYTER_CONFIG_PATH"]) == [ROLES / role, ROLES / "common"]


def test_docs_name_every_sample_and_the_hub_command():
    docs = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    for name in ("make hub", "deploy/hub/jupyterhub_config.py", "deploy/tljh/course.py", "deploy/k8s/z2jh-values.yaml"):
        assert name in docs, name
    assert "make hub" in (ROOT / "README.md").read_text(encoding="utf-8")


def _grader_settings(environment: dict[str, str]):
    from autograder.service import config

    return config.from_env({k: str(v) for k, v in environment.items()})


def test_the_hub_starts_the_grading_service_and_users_and_their_servers_may_ask_it(hub_env, monkeypatch):
    monkeypatch.setenv("COURSE_GRADER_PER_HOUR", "4")
    c = _load(CONFIG)
    (grader,) = [s for s in c.JupyterHub.services if s["name"] == "grader"]
    assert grader["command"][-2:] == ["-m", "autograder.service"]
    settings = _grader_settings(grader["environment"])
    assert settings.limits.per_hour == 4  # the instructor's limit, as the hub was given it
    assert settings.course == ROOT and (settings.course / "source").is_dir()
    assert settings.home("ann") == str(hub_env / "state" / "home" / "ann") and settings.instructors == {"prof"}
    assert {"name": "user", "scopes": ["self", "access:services!service=grader"]} in c.JupyterHub.load_roles
    assert "access:services!service=grader" in c.Spawner.server_token_scopes
    assert c.Spawner.environment["COURSE_GRADER_URL"] == f"{grader['url']}/services/grader/"


def test_tljh_sample_starts_the_grading_service_on_the_users_homes():
    c = _load(DEPLOY / "tljh" / "course.py")
    (grader,) = c.JupyterHub.services.get_value([])
    settings = _grader_settings(grader["environment"])
    assert settings.home("ann") == "/home/jupyter-ann" and settings.limits.cooldown_s == 120
    assert {"name": "user", "scopes": ["self", "access:services!service=grader"]} in c.JupyterHub.load_roles.get_value(
        []
    )
    spawner = _spawner("ann")
    c.Spawner.pre_spawn_hook(spawner)
    assert spawner.environment["COURSE_GRADER_URL"] == f"{grader['url']}/services/grader/"


def test_z2jh_grading_service_reads_the_homes_the_user_pods_write_and_is_reachable_from_them():
    values = yaml.safe_load((DEPLOY / "k8s" / "z2jh-values.yaml").read_text())
    deployment, service = yaml.safe_load_all((DEPLOY / "k8s" / "grader.yaml").read_text())
    pod = deployment["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    env = {e["name"]: e.get("value", "from-secret") for e in container["env"]}
    settings = _grader_settings(env)
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    claims = {v["name"]: v["persistentVolumeClaim"]["claimName"] for v in pod["spec"]["volumes"]}
    storage = values["singleuser"]["storage"]
    homes = storage["static"]
    assert claims["homes"] == homes["pvcName"]
    assert settings.home("ann") == f"{mounts['homes']}/{homes['subPath'].format(username='ann')}"
    assert settings.course.is_relative_to(mounts["grader-course"])
    url = f"http://{service['metadata']['name']}:{service['spec']['ports'][0]['port']}"
    assert values["hub"]["services"]["grader"]["url"] == url
    assert values["singleuser"]["extraEnv"]["COURSE_GRADER_URL"] == f"{url}/services/grader/"
    assert env["JUPYTERHUB_SERVICE_NAME"] == "grader" and env["JUPYTERHUB_SERVICE_PREFIX"] == "/services/grader/"
    assert "access:services!service=grader" in values["hub"]["loadRoles"]["user"]["scopes"]
    (egress,) = values["singleuser"]["networkPolicy"]["egress"]
    assert egress["to"][0]["podSelector"]["matchLabels"]["app"] == pod["metadata"]["labels"]["app"]
    assert egress["ports"][0]["port"] == service["spec"]["ports"][0]["port"]
    assert pod["metadata"]["labels"]["hub.jupyter.org/network-access-hub"] == "true"
    c = Config()
    exec(compile(values["hub"]["extraConfig"]["course-grader"], "course-grader", "exec"), {"c": c})
    assert "access:services!service=grader" in c.KubeSpawner.server_token_scopes
