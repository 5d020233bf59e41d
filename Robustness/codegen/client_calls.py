"""Calls every operation of a client generated from Public/openapi.json (openapi-python-client) against a live
server: once with only the required parameters (the generated client then sends every documented default, so a
default the server refuses fails here), then once per optional parameter, set to its documented example.

    client_calls.py --binary .build/debug/Run --client <dir holding the generated package>

A call passes when the answer is a documented 2xx (or 304 for the conditional headers) and the generated client
parsed it into its model (not its `Error` model). Prints a `check | result` table ending in `N passed, N failed`.
"""
import argparse
import datetime
import enum
import importlib
import json
import re
import sys
import tempfile
import typing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "Scripts"))
import harness  # noqa: E402

SPEC = harness.ROOT / "Public" / "openapi.json"

# Rules the schema language cannot state, from the operations' descriptions: a parameter that is only
# meaningful with another one is sent with that one (its example), and an operation that needs one of several
# optional parameters gets the first of them on every call.
COMPANIONS = {"radius_km": ["near"], "sort": ["near", "fuel"], "zoom": ["cluster"], "litres": ["near", "fuel"],
              "l_per_100km": ["near", "fuel"]}
NEEDS_ONE_OF = {"cheapestPrices": ["state"], "advice": ["city"]}
# Operations a client does not call: the dataset is for followers (binary), metrics for scrapers (text).
NOT_FOR_CLIENTS = {"getDataset", "getMetrics"}


def snake(name):
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").lower()


def operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete") and isinstance(operation, dict):
                yield path, operation


def schema_of(spec, parameter):
    schema = parameter.get("schema", {})
    if "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def several(spec, parameter):
    """Two or more values for a list parameter: its example when it has two, else the example and another value."""
    schema = schema_of(spec, parameter)
    example = parameter.get("example")
    if schema.get("type") != "array" or example is None:
        return None
    values = list(example) if isinstance(example, list) else [example]
    if len(values) >= 2:
        return values
    items = schema.get("items", {})
    if "$ref" in items:
        items = spec["components"]["schemas"][items["$ref"].rsplit("/", 1)[1]]
    others = [v for v in items.get("enum", []) if v not in values]
    return values + ([others[0]] if others else values)


def body_argument(spec, module, operation):
    """The request body's example as the generated model, for operations that take one."""
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if not content:
        return {}
    model = typing.get_type_hints(module.sync_detailed).get("body")
    options = [a for a in typing.get_args(model) or [model] if hasattr(a, "from_dict")]
    return {"body": (options[0].from_dict(content["example"]), None)} if options else {}


def parameters(spec, operation):
    for parameter in operation.get("parameters", []):
        if "$ref" in parameter:
            parameter = spec["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
        yield parameter


def typed(value, annotation, parameter):
    """The example as the generated function's argument type (enums are classes, lists of enums too)."""
    options = [a for a in typing.get_args(annotation) or [annotation] if getattr(a, "__name__", "") != "Unset"]
    for option in options:
        if isinstance(option, type) and issubclass(option, enum.Enum):
            return option(value)
        if option is datetime.datetime:
            return datetime.datetime.fromisoformat(value)
        if typing.get_origin(option) is list:
            item_type = typing.get_args(option)[0]
            # openapi-python-client ignores `explode: false` and repeats the key (`ids=1&ids=2`): the server takes
            # a repeated list parameter as one list, so the list goes as the client sends it.
            return [typed(v, item_type, parameter) for v in value]
    return value


def find_module(package, operation_id):
    name = snake(operation_id)
    for candidate in package.glob("api/*/*.py"):
        if candidate.stem == name:
            return importlib.import_module(f"{package.name}.api.{candidate.parent.name}.{name}")
    return None


def call(module, client, arguments):
    hints = typing.get_type_hints(module.sync_detailed)
    kwargs = {name: value if parameter is None else typed(value, hints.get(name), parameter)
              for name, (value, parameter) in arguments.items()}
    return module.sync_detailed(client=client, **kwargs)


def verdict(response, operation):
    status = int(response.status_code)
    documented = operation.get("responses", {})
    if status == 304:
        return "304" in documented, "304"
    # This server runs without PETTY_DATABASE_URL: the alert routes must answer their documented 503 saying so
    # (their 2xx paths are exercised against a real PostgreSQL by Tests/postgres/run.sh).
    if "Alerts" in operation.get("tags", []) and status == 503 and "503" in documented:
        body = json.loads(response.content or b"{}")
        expected = "price alerts need a database: set PETTY_DATABASE_URL"
        return body.get("reason") == expected, f"503 without a database ({body.get('reason')})"
    if not (200 <= status < 300) or str(status) not in documented:
        body = response.content[:200].decode("utf-8", "replace")
        return False, f"{status} {body}"
    parsed = response.parsed
    if parsed is None and documented[str(status)].get("content", {}).get("application/json"):
        return False, f"{status}: the client could not parse the body"
    if type(parsed).__name__ == "Error":
        return False, f"{status}: parsed as Error"
    return True, str(status)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--client", required=True, help="directory holding the generated package")
    args = parser.parse_args()
    harness.raise_on_signals()
    spec = json.loads(SPEC.read_text())
    client_dir = Path(args.client)
    package = next(p for p in client_dir.iterdir() if (p / "client.py").exists())
    sys.path.insert(0, str(client_dir))
    client_module = importlib.import_module(f"{package.name}.client")

    results = harness.Results()
    processes = harness.Processes()
    with tempfile.TemporaryDirectory() as scratch:
        try:
            port = harness.free_port()
            server = processes.start([args.binary, "serve", "--hostname", "127.0.0.1", "--port", port,
                                      "--data-dir", f"{scratch}/data", "--log-level", "warning"],
                                     log=f"{scratch}/server.log", env={"PETTY_PROVIDERS": "none"})
            base = f"http://127.0.0.1:{port}"
            if not harness.wait_for(120, lambda: harness.http_get(base + "/health").status in (200, 503)):
                results.failed("server starts", f"exit {server.poll()}")
                results.print_table()
                return 1
            client = client_module.Client(base_url=base, raise_on_unexpected_status=False, timeout=30)
            run(spec, package, client, results)
        finally:
            processes.stop_all()
    results.print_table(width=80)
    return 0 if results.count("FAIL") == 0 else 1


def run(spec, package, client, results):
    for path, operation in operations(spec):
        operation_id = operation["operationId"]
        if operation_id in NOT_FOR_CLIENTS:
            continue
        module = find_module(package, operation_id)
        if not results.check(f"{operation_id}: generated", module is not None, "no module in the client"):
            continue
        every = {snake(p["name"]): (p.get("example"), p) for p in parameters(spec, operation)}
        required = {k: v for k, v in every.items() if v[1].get("required")}
        required.update({snake(n): every[snake(n)] for n in NEEDS_ONE_OF.get(operation_id, [])})
        required.update(body_argument(spec, module, operation))
        attempts = [("required only", required)]
        for name, (example, parameter) in every.items():
            if name in required or example is None:
                continue
            chosen = dict(required)
            for companion in COMPANIONS.get(parameter["name"], []):
                if snake(companion) in every:
                    chosen[snake(companion)] = every[snake(companion)]
            chosen[name] = (example, parameter)
            attempts.append((f"{parameter['name']}={json.dumps(example)}", chosen))
            values = several(spec, parameter)
            if values is not None:
                # A generated client sends a list exploded (`name=a&name=b`): every list parameter with 2+ values.
                attempts.append((f"{parameter['name']}={json.dumps(values)}", dict(chosen, **{name: (values, parameter)})))
        for label, arguments in attempts:
            try:
                ok, detail = verdict(call(module, client, arguments), operation)
            except Exception as error:  # a client that raises is a failed call, reported, not a crash
                ok, detail = False, f"{type(error).__name__}: {error}"
            results.check(f"{operation_id} {label}"[:80], ok, detail)


if __name__ == "__main__":
    sys.exit(main())
