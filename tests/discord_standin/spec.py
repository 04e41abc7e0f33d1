"""Discord's OpenAPI description as a route table and compiled request-body validators.

The stand-in refuses what Discord would refuse, so every body the bot sends is checked against
the published spec. Loading and compiling ~1 MB of JSON takes a while, so one `SpecIndex` is
built per process (see `load_spec`) and its validators are cached per operation.
"""

from __future__ import annotations

import copy
import datetime
import functools
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import UndefinedTypeCheck, ValidationError, by_relevance
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_URI = "urn:discord-api-spec"
SPEC_ENV = "HANAFUDA_DISCORD_SPEC"
REQUIRE_ENV = "HANAFUDA_REQUIRE_SPEC"

# tests/discord_standin/spec.py -> parents[2] is the project root; the spec lives beside it.
PROJECT_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SPEC_PATH = PROJECT_ROOT.parent / "shared" / "discord-api-spec" / "openapi.json"


def spec_path() -> Path:
    """Where the spec is expected: `$HANAFUDA_DISCORD_SPEC`, else a checkout of Discord's API
    spec beside the project (:data:`DEFAULT_SPEC_PATH`)."""
    override = os.environ.get(SPEC_ENV)
    return Path(override) if override else DEFAULT_SPEC_PATH


def _format_checker() -> FormatChecker:
    """Check the two formats Discord rejects in practice (bad timestamps, bad URLs).

    jsonschema's own checkers for these need optional packages; these small ones keep the
    dependency list unchanged. Other formats (int32, snowflake, nonce) are left unchecked.
    """
    checker = FormatChecker(formats=())

    @checker.checks("date-time", raises=ValueError)
    def _date_time(value: object) -> bool:
        if not isinstance(value, str):
            return True
        parsed = datetime.datetime.fromisoformat(value)
        return "T" in value.upper() and parsed.tzinfo is not None

    @checker.checks("uri")
    def _uri(value: object) -> bool:
        if not isinstance(value, str):
            return True
        parts = urlsplit(value)
        return bool(parts.scheme) and bool(parts.netloc)

    return checker


@dataclass(frozen=True)
class Operation:
    """One (method, path template) of the spec, with the pointer to its request-body schemas."""

    method: str
    template: str
    regex: re.Pattern[str]
    params: tuple[str, ...]
    pointer: str
    body_required: bool
    body_types: tuple[str, ...]

    def match(self, path: str) -> dict[str, str] | None:
        m = self.regex.fullmatch(path)
        return m.groupdict() if m else None


@dataclass
class BodyError:
    """A body that Discord would refuse: a readable summary and Discord's nested `errors` object."""

    summary: str
    errors: dict[str, Any]


def _pointer_escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


_CODES = {
    "maxLength": ("BASE_TYPE_MAX_LENGTH", "Must be {v} or fewer in length."),
    "maxItems": ("BASE_TYPE_MAX_LENGTH", "Must be {v} or fewer in length."),
    "minLength": ("BASE_TYPE_MIN_LENGTH", "Must be {v} or more in length."),
    "minItems": ("BASE_TYPE_MIN_LENGTH", "Must be {v} or more in length."),
    "maximum": ("NUMBER_TYPE_MAX", "Int value should be less than or equal to {v}."),
    "minimum": ("NUMBER_TYPE_MIN", "Int value should be greater than or equal to {v}."),
    "required": ("BASE_TYPE_REQUIRED", "This field is required"),
    "type": ("BASE_TYPE_BAD_TYPE", "Must be of type {v}."),
    "enum": ("BASE_TYPE_CHOICES", "Value must be one of {v}."),
    "const": ("BASE_TYPE_CHOICES", "Value must be {v}."),
    "format": ("BASE_TYPE_BAD_FORMAT", "Not a well formed {v}."),
    "pattern": ("BASE_TYPE_BAD_FORMAT", "Must match {v}."),
}


def _describe(error: ValidationError) -> tuple[str, str]:
    """Discord-style (code, message) for a schema error, without echoing the whole instance."""
    if error.validator in ("oneOf", "anyOf") and not isinstance(error.instance, dict | list):
        allowed = [
            b["const"] for b in error.validator_value if isinstance(b, dict) and "const" in b
        ]
        if allowed:
            return "BASE_TYPE_CHOICES", f"Value {error.instance!r} must be one of {allowed}."
    code, template = _CODES.get(str(error.validator), ("BASE_TYPE_INVALID", ""))
    if not template:
        return code, error.message[:200]
    value = error.validator_value
    if error.validator == "const":
        value = repr(value)
    return code, template.format(v=value)


def _error_path(error: ValidationError) -> list[str]:
    path = [str(p) for p in error.absolute_path]
    if error.validator == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        path += missing[:1]
    return path


def _nest_errors(error: ValidationError) -> dict[str, Any]:
    """Discord's error shape: the failing field path as nested keys ending in `_errors`."""
    code, message = _describe(error)
    leaf: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(_error_path(error)):
        leaf = {key: leaf}
    return leaf


def _discriminated_out(errors: list[ValidationError]) -> bool:
    """Whether a union branch is plainly not the intended one.

    It is not when the value has another JSON type (the `null` arm of a nullable object) or the
    object's `type` discriminator names another variant.
    """
    return any(
        (not e.relative_path and e.validator == "type")
        or (list(e.relative_path) == ["type"] and e.validator in ("enum", "const"))
        for e in errors
    )


def _pinpoint(errors: list[ValidationError]) -> ValidationError | None:
    """The error that names the real mistake.

    Discord's unions (callback types, component types) are `anyOf`s discriminated by a `type`
    field; jsonschema's `best_match` often stops at the union itself. Descend into the branch
    whose discriminator matched instead, so the report says e.g. `data/embeds/0/description`.
    """
    relevance = by_relevance()
    error = max(errors, key=relevance, default=None)
    while error is not None and error.context:
        if all(not e.relative_path and e.validator in ("const", "enum") for e in error.context):
            break  # a union of allowed values (e.g. button styles): report the union itself
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        candidates = [errs for errs in branches.values() if not _discriminated_out(errs)]
        error = max(min(candidates or list(branches.values()), key=len), key=relevance)
    return error


def _json_type_in(instance: Any, names: str | list[str]) -> bool:
    """Whether ``instance`` is of one of JSON Schema's type ``names``, by jsonschema's own
    checker (true is no number, 1.0 is an integer); a name it does not know is left to the
    schema to judge."""
    checker = Draft202012Validator.TYPE_CHECKER
    try:
        return any(checker.is_type(instance, name)
                   for name in ([names] if isinstance(names, str) else names))
    except UndefinedTypeCheck:
        return True


def _same_json_value(a: Any, b: Any) -> bool:
    """JSON's equality for the scalars a discriminator names: true is not 1."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _allowed(schema: Any) -> list[Any] | None:
    """The values ``schema`` allows when it lists them (``enum`` or ``const``) and they are all
    scalars, else None."""
    if not isinstance(schema, dict):
        return None
    values = schema["enum"] if "enum" in schema else [schema["const"]] if "const" in schema else None
    if not isinstance(values, list) or any(isinstance(v, (dict, list)) for v in values):
        return None
    return values


Mark = tuple[Any, "list[Any] | None", "list[Any] | None"]


class _Unions:
    """Which branches of a union can hold an instance at all, judged by what each branch says of
    itself at once: its JSON type, the values it lists, and those its ``type`` field may take.

    Discord's unions (components, callbacks) name dozens of object schemas told apart by their
    ``type`` field; checking an instance against each in turn built tens of thousands of errors
    per message and made the check most of an end-to-end test's time. A branch ruled out here
    fails under the full check too, so a union with exactly the matches it needs among the rest
    is valid; any other outcome is left to the full check, whose errors are unchanged.
    """

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        # id of a union's branch list -> (the list, kept alive so the id stays its own; a mark
        # per branch: its JSON type, the values it lists, the values of its type field)
        self._marks: dict[int, tuple[list[Any], list[Mark]]] = {}

    def _target(self, branch: Any) -> Any:
        for _ in range(8):  # a chain of references, as the spec writes them
            ref = branch.get("$ref") if isinstance(branch, dict) else None
            if not isinstance(ref, str) or not ref.startswith("#/"):
                return branch
            node: Any = self.document
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
            branch = node
        return branch

    def _marks_of(self, branches: list[Any]) -> list[Mark]:
        known = self._marks.get(id(branches))
        if known is not None and known[0] is branches:
            return known[1]
        marks = []
        for branch in branches:
            target = self._target(branch)
            if not isinstance(target, dict):
                marks.append((None, None, None))
                continue
            field = (target.get("properties") or {}).get("type")
            marks.append((target.get("type"), _allowed(target), _allowed(field)))
        self._marks[id(branches)] = (branches, marks)
        return marks

    def candidates(self, branches: list[Any], instance: Any) -> list[tuple[int, Any]]:
        kept = []
        for index, (branch, (kind, own, field)) in enumerate(zip(branches, self._marks_of(branches),
                                                                 strict=True)):
            if kind is not None and not _json_type_in(instance, kind):
                continue
            if own is not None and not any(_same_json_value(instance, v) for v in own):
                continue
            if field is not None and isinstance(instance, dict) and "type" in instance \
                    and not any(_same_json_value(instance["type"], v) for v in field):
                continue
            kept.append((index, branch))
        return kept

    def validator_class(self) -> type:
        full_any = Draft202012Validator.VALIDATORS["anyOf"]
        full_one = Draft202012Validator.VALIDATORS["oneOf"]

        def holds(validator: Any, instance: Any, index: int, branch: Any) -> bool:
            return next(iter(validator.descend(instance, branch, schema_path=index)), None) is None

        def any_of(validator: Any, branches: list[Any], instance: Any, schema: Any):
            kept = self.candidates(branches, instance)
            if len(kept) < len(branches) and any(holds(validator, instance, i, b) for i, b in kept):
                return
            yield from full_any(validator, branches, instance, schema)

        def one_of(validator: Any, branches: list[Any], instance: Any, schema: Any):
            kept = self.candidates(branches, instance)
            if len(kept) < len(branches) and \
                    sum(holds(validator, instance, i, b) for i, b in kept) == 1:
                return
            yield from full_one(validator, branches, instance, schema)

        return validators.extend(Draft202012Validator, {"anyOf": any_of, "oneOf": one_of})


class SpecIndex:
    """Route table and body validators built from one openapi.json document."""

    def __init__(self, document: dict[str, Any]):
        self.document = self._with_quirks(document)
        resource = DRAFT202012.create_resource(self.document)
        self._validator_class = _Unions(self.document).validator_class()
        self._registry: Registry = Registry().with_resource(SPEC_URI, resource)
        self._format_checker = _format_checker()
        self.operations: list[Operation] = []
        for template, item in self.document["paths"].items():
            for method, op in item.items():
                if method == "parameters" or not isinstance(op, dict):
                    continue
                self.operations.append(self._operation(method.upper(), template, op))
        # Literal segments (@me, @original) must win over parameters at the same position.
        self.operations.sort(key=lambda o: (len(o.params), o.template))
        # Verdicts on bodies seen before: every bot a test starts publishes the same commands,
        # and checking that body against the schema again each time is most of a start.
        self._verdicts: dict[tuple[str, str], BodyError | None] = {}

    @staticmethod
    def _with_quirks(document: dict[str, Any]) -> dict[str, Any]:
        """Adapt the spec where Discord accepts more than it documents.

        Snowflakes are documented as decimal strings, but Discord accepts JSON integers too and
        discord.py sends integers (e.g. `recipient_id`, attachment ids, allowed-mention ids).
        Only the snowflake type is widened; every other constraint stays as published.
        """
        doc = copy.deepcopy(document)
        schemas = doc["components"]["schemas"]
        snowflake = schemas["SnowflakeType"]
        schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
        return doc

    @staticmethod
    def _operation(method: str, template: str, op: dict[str, Any]) -> Operation:
        params = tuple(re.findall(r"\{([^}]+)\}", template))
        parts = re.split(r"\{([^}]+)\}", template)  # literal, param, literal, ...
        pattern = "".join(
            re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^/]+)" for i, p in enumerate(parts)
        )
        body = op.get("requestBody") or {}
        content = body.get("content") or {}
        pointer = (
            "/paths/" + _pointer_escape(template) + "/" + method.lower() + "/requestBody/content"
        )
        return Operation(
            method=method,
            template=template,
            regex=re.compile(pattern),
            params=params,
            pointer=pointer,
            body_required=bool(body.get("required")),
            body_types=tuple(content),
        )

    def find(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The spec operation serving `method path`, with its path parameters, or None."""
        for op in self.operations:
            if op.method != method:
                continue
            params = op.match(path)
            if params is not None:
                return op, params
        return None

    @functools.lru_cache(maxsize=512)  # noqa: B019 - one index per process; cache lives with it
    def _validator(self, pointer: str) -> Draft202012Validator:
        schema = {"$ref": SPEC_URI + "#" + pointer}
        return self._validator_class(
            schema, registry=self._registry, format_checker=self._format_checker
        )

    def validate_body(self, op: Operation, content_type: str, body: Any) -> BodyError | None:
        """Check a decoded body against the operation's schema for `content_type`.

        Multipart bodies are checked as their `payload_json` part, which is what Discord parses.
        """
        if not op.body_types:
            return BodyError(f"{op.method} {op.template} takes no request body", {})
        kind = content_type if content_type in op.body_types else "application/json"
        if kind not in op.body_types:
            return BodyError(f"{op.method} {op.template} does not accept {content_type}", {})
        pointer = op.pointer + "/" + _pointer_escape(kind) + "/schema"
        try:
            key = (pointer, json.dumps(body, sort_keys=True, allow_nan=False))
        except (TypeError, ValueError):  # not plain JSON: checked every time
            key = None
        if key is not None and key in self._verdicts:
            return self._verdicts[key]
        verdict = self._check_body(pointer, body)
        if key is not None:
            if len(self._verdicts) >= 256:
                self._verdicts.pop(next(iter(self._verdicts)))
            self._verdicts[key] = verdict
        return verdict

    def _check_body(self, pointer: str, body: Any) -> BodyError | None:
        error = _pinpoint(list(self._validator(pointer).iter_errors(body)))
        if error is None:
            return None
        where = "/".join(_error_path(error)) or "<body>"
        return BodyError(f"{where}: {_describe(error)[1]}", _nest_errors(error))

    def validate_response(self, op: Operation, body: Any, status: str = "200") -> str | None:
        """What the spec's JSON response schema of ``status`` finds wrong with ``body``."""
        pointer = ("/paths/" + _pointer_escape(op.template) + "/" + op.method.lower()
                   + "/responses/" + status + "/content/application~1json/schema")
        error = _pinpoint(list(self._validator(pointer).iter_errors(body)))
        if error is None:
            return None
        return f"{'/'.join(_error_path(error)) or '<body>'}: {_describe(error)[1]}"

    def validate_path_params(self, op: Operation, params: dict[str, str]) -> str | None:
        """Path parameters (ids, tokens) must match their declared schemas, as strings."""
        item = self.document["paths"][op.template]
        declared = list(item.get("parameters", [])) + list(
            item[op.method.lower()].get("parameters", [])
        )
        for param in declared:
            if param.get("in") != "path" or param["name"] not in params:
                continue
            pointer = self._param_pointer(op, param["name"])
            error = _pinpoint(list(self._validator(pointer).iter_errors(params[param["name"]])))
            if error is not None:
                return f"path parameter {param['name']}={params[param['name']]!r}: {_describe(error)[1]}"
        return None

    def _param_pointer(self, op: Operation, name: str) -> str:
        item = self.document["paths"][op.template]
        for where, params in (
            ("", item.get("parameters", [])),
            (op.method.lower() + "/", item[op.method.lower()].get("parameters", [])),
        ):
            for index, param in enumerate(params):
                if param.get("name") == name and param.get("in") == "path":
                    return f"/paths/{_pointer_escape(op.template)}/{where}parameters/{index}/schema"
        raise KeyError(name)


class SpecMissing(RuntimeError):
    """The spec file is absent; CI (HANAFUDA_REQUIRE_SPEC=1) treats this as a failure."""


@functools.lru_cache(maxsize=4)
def _load(path: str) -> SpecIndex:
    with open(path, encoding="utf-8") as fh:
        return SpecIndex(json.load(fh))


def load_spec(path: Path | None = None) -> SpecIndex:
    """The process-wide `SpecIndex` for `path` (default: `spec_path()`); raises `SpecMissing`."""
    path = path or spec_path()
    if not path.is_file():
        raise SpecMissing(f"Discord OpenAPI spec not found at {path} (set {SPEC_ENV} to override)")
    return _load(str(path.resolve()))
