import http.client
import json
import os
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, Optional, Tuple


class FlowbenchError(Exception):
    """Every failure of a call (sdk/python/README.md lists the codes).

    `status` is the HTTP status the server answered (0 when no answer came); `code` is the API's stable error code
    for a non-2xx answer that carries one (HTTP_<status> when it carries none), or one of the SDK's own:
    CONNECTION_FAILED (status 0, the server could not be reached), TIMEOUT (no answer, or not its whole body, within
    `timeout` seconds), RESPONSE_INCOMPLETE (the answer's body broke off), UNEXPECTED_RESPONSE (a 2xx answer that is
    not JSON or not the documented shape, or a validate answer that is neither a result nor an error; `body` holds
    it). An invalid workflow on validate is not an error: it is the result {"valid": False, ...}.
    """

    def __init__(self, status: int, code: str, message: str, details: Optional[list] = None, body: Any = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details or []
        self.body = body


class Client:
    def __init__(self, base_url: Optional[str] = None, token: Optional[str] = None, timeout: float = 30.0):
        self.base_url = (base_url or os.environ.get("FLOWBENCH_URL") or "http://localhost:3000").rstrip("/")
        self.token = token if token is not None else os.environ.get("FLOWBENCH_TOKEN")
        self.timeout = timeout

    def request(self, method: str, path: str, body: Any = None, accept: Iterable[int] = ()) -> Tuple[int, Any]:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        url = self.base_url + path
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                status = res.status
                raw = _read(res, method, url, self.timeout)
                return status, _json_or_raise(raw, status, method, url, res.headers.get("Content-Type"))
        except urllib.error.HTTPError as e:
            raw = _read(e, method, url, self.timeout)
            if e.code in accept:
                return e.code, _json_or_raise(raw, e.code, method, url, e.headers.get("Content-Type"))
            parsed = _parse(raw)
            err = _api_error(parsed)
            raise FlowbenchError(e.code, err.get("code", f"HTTP_{e.code}"), err.get("message", str(e)), err.get("details"), parsed) from None
        except urllib.error.URLError as e:
            # a connect that times out arrives wrapped: URLError(reason=TimeoutError)
            if isinstance(e.reason, (TimeoutError, socket.timeout)):
                raise FlowbenchError(0, "TIMEOUT", f"{method} {self.base_url + path}: no connection within {self.timeout} s") from None
            raise FlowbenchError(0, "CONNECTION_FAILED", f"could not reach Flowbench at {self.base_url + path} ({e.reason})") from None
        except (TimeoutError, socket.timeout, OSError, http.client.HTTPException) as e:
            # the connection was made, but no (well-formed) answer came in time (RemoteDisconnected, BadStatusLine, ...)
            code = "TIMEOUT" if isinstance(e, (TimeoutError, socket.timeout)) else "CONNECTION_FAILED"
            raise FlowbenchError(0, code, f"{method} {url}: {e!r}") from None

    def list_node_types(self) -> Dict[str, Any]:
        """The node-type contract (GET /api/builder/node-types)."""
        return _expect(self.request("GET", "/api/builder/node-types"), "the node-type contract", lambda b: isinstance(b.get("nodeTypes"), list))

    def validate_workflow(self, workflow: Dict[str, Any], kind: Optional[str] = None) -> Dict[str, Any]:
        """Validates without storing (kind "judge": also against the judge contract). Returns {"valid", "errors",
        "warnings"}; an invalid workflow is not an exception."""
        payload: Dict[str, Any] = {"workflow": workflow} if kind is None else {"workflow": workflow, "kind": kind}
        status, body = self.request("POST", "/api/builder/validate", payload, accept=(400,))
        if isinstance(body, dict) and isinstance(body.get("valid"), bool) and isinstance(body.get("errors"), list) and isinstance(body.get("warnings"), list):
            return {"valid": body["valid"], "errors": body["errors"], "warnings": body["warnings"]}
        # not a validation result: a 400 with the server's error (e.g. INVALID_JSON, REQUEST_INVALID) keeps its code;
        # anything else (a 200 of another shape, a 400 without an error) is UNEXPECTED_RESPONSE; the status is the answer's
        err = _api_error(body)
        raise FlowbenchError(status, err.get("code", "UNEXPECTED_RESPONSE"), err.get("message", f"the {status} answer is not a validation result"), err.get("details"), body)

    def get_recipe(self, name: str) -> Dict[str, Any]:
        answer = self.request("GET", "/api/builder/recipes/" + urllib.parse.quote(name))
        return _expect(answer, "a recipe", lambda b: isinstance(b.get("name"), str) and isinstance(b.get("workflow"), dict))

    def create_agent(self, name: str, workflow: Dict[str, Any], description: str = "", note: str = "", kind: str = "agent") -> Dict[str, Any]:
        """Provisions a new agent (version 1) of kind "agent" or "judge". Raises FlowbenchError WORKFLOW_INVALID with the findings as details."""
        answer = self.request("POST", "/api/builder/agents", {"name": name, "description": description, "kind": kind, "workflow": workflow, "note": note})
        return _expect(answer, "a provisioned agent", lambda b: isinstance(b.get("agent"), dict) and isinstance(b.get("version"), dict))

    def add_version(self, agent_id: str, workflow: Dict[str, Any], note: str = "") -> Dict[str, Any]:
        answer = self.request("POST", f"/api/builder/agents/{urllib.parse.quote(agent_id)}/versions", {"workflow": workflow, "note": note})
        return _expect(answer, "a provisioned version", lambda b: isinstance(b.get("version"), dict))


def _read(res: Any, method: str, url: str, timeout: float) -> bytes:
    """The whole body of an answer; one that stalls is TIMEOUT, one that breaks off RESPONSE_INCOMPLETE (its status)."""
    status = getattr(res, "status", None) or getattr(res, "code", 0)
    try:
        return res.read()
    except (TimeoutError, socket.timeout) as e:
        raise FlowbenchError(status, "TIMEOUT", f"{method} {url}: the {status} answer's body did not come within {timeout} s ({e})") from None
    except (http.client.IncompleteRead, OSError, http.client.HTTPException) as e:
        raise FlowbenchError(status, "RESPONSE_INCOMPLETE", f"{method} {url}: the {status} answer's body broke off ({e!r})") from None


def _json_or_raise(raw: bytes, status: int, method: str, url: str, content_type: Optional[str]) -> Any:
    """The parsed JSON of an answer the caller takes as a result; anything else (HTML, text, nothing) is UNEXPECTED_RESPONSE."""
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:
        text = raw.decode("utf-8", "replace")
        raise FlowbenchError(status, "UNEXPECTED_RESPONSE", f"{method} {url}: the {status} answer is not JSON ({content_type or 'no content type'}: {text[:80]})", None, text) from None


def _expect(answer: Tuple[int, Any], what: str, ok: Any) -> Dict[str, Any]:
    """A 2xx body of the documented shape, or UNEXPECTED_RESPONSE with the answer's status and body."""
    status, body = answer
    if isinstance(body, dict) and ok(body):
        return body
    raise FlowbenchError(status, "UNEXPECTED_RESPONSE", f"the {status} answer is not {what}: {json.dumps(body)[:120]}", None, body)


def _api_error(body: Any) -> Dict[str, Any]:
    """The server's {"error": {"code", "message", "details"}} when the body is one (else {})."""
    err = body.get("error") if isinstance(body, dict) else None
    if not isinstance(err, dict) or not isinstance(err.get("code"), str):
        return {}
    out: Dict[str, Any] = {"code": err["code"]}
    if isinstance(err.get("message"), str):
        out["message"] = err["message"]
    if isinstance(err.get("details"), list):
        out["details"] = err["details"]
    return out


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:
        return raw.decode("utf-8", "replace")
