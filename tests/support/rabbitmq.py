"""A RabbitMQ cluster of the tests' own: N nodes of Debian's ``rabbitmq-server`` (3.10,
which ``scripts/test`` installs when missing) on this machine, each with the MQTT plugin,
joined into one cluster, stopped and started again one at a time — never the machine's
own RabbitMQ (``rabbit@localhost`` on 5672) nor its epmd (4369).

What makes the cluster the test's own:

- **its own epmd** on a free loopback port (``ERL_EPMD_PORT``, ``ERL_EPMD_ADDRESS``),
  started here and stopped with the cluster, so no node registers with the system's;
- **own node names** ``fw<random>-<i>@localhost`` (``RABBITMQ_NODENAME``);
- **own ports** from free ports: AMQP (``RABBITMQ_NODE_PORT``), Erlang distribution
  (``RABBITMQ_DIST_PORT``, bound to loopback), MQTT (``mqtt.listeners.tcp``);
- **own files** in a tmp dir: data (``RABBITMQ_MNESIA_BASE``), logs
  (``RABBITMQ_LOG_BASE``), config (``RABBITMQ_CONFIG_FILE``), plugins
  (``RABBITMQ_ENABLED_PLUGINS_FILE``), an empty env file in place of
  ``/etc/rabbitmq/rabbitmq-env.conf`` (``RABBITMQ_CONF_ENV_FILE``: the system's names the
  node ``rabbit@localhost``), and an own ``HOME`` whose ``.erlang.cookie`` is the
  cluster's secret.

The nodes run the scripts under ``/usr/lib/rabbitmq/bin`` directly: Debian's
``/usr/sbin`` wrappers change to ``/var/lib/rabbitmq`` and switch to the ``rabbitmq``
user, which would make the node the system's.

The broker configuration is the one docs/scaling.md recommends for a table's cluster:
``mqtt.durable_queue_type = quorum`` (the hub's persistent session survives the loss of
the node it was on). The MQTT plugin needs a majority of the nodes up to accept a
connection (its client ids are tracked in Raft): use three nodes to stop one.

No pytest here; :func:`rabbitmq_cluster` turns a missing installation into a skip.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from tests.support.ports import free_port, wait_port

SBIN = Path("/usr/lib/rabbitmq/bin")
"""Where Debian's package keeps RabbitMQ's own scripts (not the ``/usr/sbin`` wrappers)."""

NOT_INSTALLED = (
    "RabbitMQ (Debian's rabbitmq-server package: /usr/lib/rabbitmq/bin/rabbitmq-server) "
    "is not installed; ./scripts/test installs it"
)

START_TIMEOUT = 120.0
"""Seconds a node may take to boot (a loaded 2-core machine boots one in 5-15 s)."""


def rabbitmq_installed() -> bool:
    """Whether this machine has RabbitMQ's scripts and Erlang's epmd."""
    return (SBIN / "rabbitmq-server").exists() and shutil.which("epmd") is not None


class RabbitUnavailable(RuntimeError):
    """This machine cannot run a RabbitMQ cluster of our own (the reason)."""


class RabbitNode:
    """One node of a :class:`RabbitCluster` (its name, ports, files and process)."""

    def __init__(self, cluster: RabbitCluster, index: int) -> None:
        self.cluster = cluster
        self.index = index
        self.name = f"{cluster.prefix}-{index}@localhost"
        self.amqp_port = free_port()
        self.mqtt_port = free_port()
        self.dist_port = free_port()
        self.dir = cluster.root / f"node{index}"
        self.dir.mkdir()
        self.config = self.dir / "rabbitmq.conf"
        self.config.write_text(
            f"listeners.tcp.default = 127.0.0.1:{self.amqp_port}\n"
            f"mqtt.listeners.tcp.default = 127.0.0.1:{self.mqtt_port}\n"
            "mqtt.durable_queue_type = quorum\n"
            # a test machine's disk is shared and small: do not block publishers at 50 MB
            "disk_free_limit.absolute = 1MB\n"
            "log.file.level = info\n"
            "log.console = false\n"
        )
        self.console = self.dir / "console.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The node's MQTT listener as a broker URL."""
        return f"mqtt://127.0.0.1:{self.mqtt_port}"

    def env(self) -> dict[str, str]:
        """The environment of this node's server and of the CLI talking to it."""
        return self.cluster.env() | {
            "RABBITMQ_NODENAME": self.name,
            "RABBITMQ_NODE_PORT": str(self.amqp_port),
            "RABBITMQ_DIST_PORT": str(self.dist_port),
            "RABBITMQ_CONFIG_FILE": str(self.config),
            "RABBITMQ_ADVANCED_CONFIG_FILE": str(self.dir / "advanced.config"),
            "RABBITMQ_MNESIA_BASE": str(self.dir / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.dir / "log"),
            "RABBITMQ_PID_FILE": str(self.dir / "rabbit.pid"),
        }

    def launch(self) -> None:
        """Start the node's server process (in the foreground, as this node's child);
        :meth:`await_startup` waits for it."""
        assert self.proc is None, f"{self.name} is running"
        with self.console.open("ab") as out:
            self.proc = subprocess.Popen(
                [str(SBIN / "rabbitmq-server")],
                env=self.env(),
                cwd=self.dir,  # an erl_crash.dump lands here
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl-C at the test's terminal is not the node's
            )

    def await_startup(self) -> None:
        """Wait until the node has booted and its MQTT listener accepts connections;
        fails with its log if it exits or takes longer than :data:`START_TIMEOUT`."""
        assert self.proc is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({self.proc.returncode}):\n{self.said()}")
            done = self.ctl("await_startup", "--timeout", "10", check=False, timeout=30)
            if done.returncode == 0:
                wait_port(self.mqtt_port, timeout=30)
                return
            time.sleep(0.5)
        raise RuntimeError(f"{self.name} did not boot in {START_TIMEOUT:.0f} s:\n{self.said()}")

    def start(self) -> None:
        """Start the node and wait until it has booted (again, after :meth:`stop`: it
        rejoins its cluster from its data dir)."""
        self.launch()
        self.await_startup()

    def stop(self, *, kill: bool = False) -> None:
        """Stop the node: ``rabbitmqctl stop`` (a clean shutdown: its clients see their
        connections closed), or SIGKILL with ``kill`` (a crash); waits for its process."""
        if self.proc is None:
            return
        if kill:
            # the whole process group: the script started is a shell that waits for the
            # Erlang VM as its child (it turns SIGTERM into a clean stop), not the VM
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        else:
            stopped = self.ctl("stop", check=False, timeout=60)
            if stopped.returncode != 0 and self.proc.poll() is None:
                self.proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=60)
        with contextlib.suppress(ProcessLookupError):  # nothing of the node may outlive it
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def ctl(
        self, *args: str, check: bool = True, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        """``rabbitmqctl -n <this node> ARGS`` with the cluster's cookie and epmd."""
        done = subprocess.run(
            [str(SBIN / "rabbitmqctl"), "-n", self.name, *args],
            env=self.env(),
            cwd=self.dir,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if check and done.returncode != 0:
            raise RuntimeError(
                f"rabbitmqctl {' '.join(args)} on {self.name} failed: {done.stdout}{done.stderr}"
            )
        return done

    def mqtt_client_ids(self) -> list[str]:
        """The client ids of the MQTT connections this node holds. ``rabbitmqctl
        list_mqtt_connections`` says it lists the target node's, but 3.10 lists the whole
        cluster's (whichever node is asked): a connection is this node's when its local
        port is this node's MQTT port."""
        done = self.ctl("list_mqtt_connections", "client_id", "port", "--silent")
        rows = (line.rsplit("\t", 1) for line in done.stdout.splitlines() if "\t" in line)
        return [cid.strip() for cid, port in rows if port.strip() == str(self.mqtt_port)]

    def said(self) -> str:
        """The end of the node's console output and log (for a failure's message)."""
        out = []
        for path in (self.console, *sorted((self.dir / "log").glob("*.log"))):
            if path.exists():
                out.append(f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}")
        return "\n".join(out)


class RabbitCluster:
    """``size`` RabbitMQ nodes of the test's own, clustered (see the module)."""

    def __init__(self, size: int = 3, root: Path | None = None) -> None:
        if not rabbitmq_installed():
            raise RabbitUnavailable(NOT_INSTALLED)
        self._own_root = root is None
        self.root = root or Path(tempfile.mkdtemp(prefix="feltwire-rabbit-"))
        self.root.mkdir(parents=True, exist_ok=True)
        self.prefix = f"fw{secrets.token_hex(4)}"
        self.epmd_port = free_port()
        self.home = self.root / "home"
        self.home.mkdir(mode=0o700)
        cookie = self.home / ".erlang.cookie"
        cookie.write_text(secrets.token_hex(16).upper())
        cookie.chmod(0o400)
        self.env_file = self.root / "rabbitmq-env.conf"
        self.env_file.write_text("# the test cluster's own: nothing from /etc/rabbitmq\n")
        self.plugins = self.root / "enabled_plugins"
        self.plugins.write_text("[rabbitmq_mqtt].\n")
        self.epmd: subprocess.Popen[bytes] | None = None
        self.nodes = [RabbitNode(self, i) for i in range(1, size + 1)]

    def env(self) -> dict[str, str]:
        """What every node and CLI call of this cluster shares."""
        loopback = "-kernel inet_dist_use_interface {127,0,0,1}"
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8",
            "HOME": str(self.home),
            "ERL_EPMD_PORT": str(self.epmd_port),
            "ERL_EPMD_ADDRESS": "127.0.0.1",
            "RABBITMQ_CONF_ENV_FILE": str(self.env_file),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.plugins),
            "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": loopback,
            "RABBITMQ_CTL_ERL_ARGS": loopback,
        }

    def start(self) -> None:
        """Start epmd and every node (side by side), then join nodes 2… to node 1."""
        self.epmd = subprocess.Popen(
            ["epmd", "-port", str(self.epmd_port)],  # foreground: our child, stopped by us
            env=self.env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_port(self.epmd_port)
        for node in self.nodes:
            node.launch()
        for node in self.nodes:
            node.await_startup()
        first = self.nodes[0]
        for node in self.nodes[1:]:
            node.ctl("stop_app")
            node.ctl("join_cluster", first.name)
            node.ctl("start_app")
            node.await_startup()
        running = first.ctl("eval", "length(rabbit_nodes:all_running()).").stdout.strip()
        if running != str(len(self.nodes)):
            raise RuntimeError(f"the cluster has {running} running nodes, not {len(self.nodes)}")

    @property
    def urls(self) -> list[str]:
        """Every node's MQTT URL, in node order."""
        return [node.url for node in self.nodes]

    def node_holding(self, client_id: str) -> RabbitNode | None:
        """The running node the MQTT client ``client_id`` is connected to (None: none)."""
        for node in self.nodes:
            if node.running and client_id in node.mqtt_client_ids():
                return node
        return None

    def close(self) -> None:
        """Stop every node (killed: its data goes anyway) and epmd; remove the nodes' data,
        and the whole folder when the cluster made it (a ``root`` given — a test's
        ``tmp_path`` — keeps the nodes' logs for a failure's post-mortem)."""
        for node in self.nodes:
            with contextlib.suppress(Exception):
                node.stop(kill=True)
        if self.epmd is not None:
            self.epmd.terminate()
            try:
                self.epmd.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.epmd.kill()
                self.epmd.wait()
            self.epmd = None
        for node in self.nodes:
            shutil.rmtree(node.dir / "mnesia", ignore_errors=True)
        if self._own_root:
            shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def rabbitmq_cluster(size: int = 3, root: Path | None = None) -> Iterator[RabbitCluster]:
    """A started cluster of the test's own, closed afterwards whatever happens (skips the
    test when RabbitMQ is not installed)."""
    import pytest

    try:
        cluster = RabbitCluster(size, root)
    except RabbitUnavailable as exc:
        pytest.skip(str(exc))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.close()
