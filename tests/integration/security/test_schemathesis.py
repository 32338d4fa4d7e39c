"""schemathesis against the live hub's own OpenAPI schema: no operation answers 5xx.

The hub runs for real (rules, a table with players, users, a token secret) in a thread
of its own, served over real HTTP; schemathesis loads ``/openapi.json`` from it and sends
each operation a bounded number of generated requests — once as the dealer (a token in
the ``Authorization`` header, so the console's routes are exercised past the access rule)
and once as the admin (who passes every rule). Any 5xx fails the test with the request
that caused it, as a curl command.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings

from hub.bootstrap import HubRuntime, start_hub
from hub.web.auth import Role
from tests.support.loop_thread import LoopThread
from tests.support.web_hub import hub_config

EXAMPLES_PER_OPERATION = 25


@pytest.fixture(scope="module")
def live_hub() -> Iterator[HubRuntime]:
    """A hub running on an event loop in a thread of its own (schemathesis and hypothesis
    call it synchronously)."""

    async def up() -> HubRuntime:
        return await start_hub(hub_config())

    async def down(hub: HubRuntime) -> None:
        await hub.stop()

    runner = LoopThread(up, down, name="hub")
    hub = runner.start()
    try:
        yield hub
    finally:
        runner.stop()


@pytest.mark.parametrize("role", [Role.DEALER, Role.ADMIN])
def test_no_operation_answers_a_server_error(live_hub: HubRuntime, role: Role) -> None:
    schema = schemathesis.openapi.from_url(f"{live_hub.web_url}/openapi.json", timeout=30)
    # ?table= names the hub's table or one it does not have (random names only find 404)
    for path in schema.raw_schema["paths"].values():
        for op in path.values():
            for param in op.get("parameters", []):
                if param["name"] == "table":
                    param["schema"] = {"enum": [live_hub.service.table, "no-such-table"]}
    headers = {"Authorization": f"Bearer {live_hub.token(role)}"}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10, [op.label for op in operations]
    errors: list[str] = []
    calls: Counter[str] = Counter()

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def exercise(case: schemathesis.Case) -> None:
            response = case.call(base_url=live_hub.web_url, headers=headers, timeout=30)
            calls[case.operation.label] += 1
            if response.status_code >= 500:
                errors.append(
                    f"{case.operation.label}: {response.status_code} {response.text[:300]}\n"
                    f"  {case.as_curl_command(headers=headers)}"
                )

        exercise()
    assert set(calls) == {op.label for op in operations}, "every operation was called"
    assert not errors, "\n".join(errors[:20])
