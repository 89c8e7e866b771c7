import json
import os
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, Optional, Tuple


class FlowbenchError(Exception):
    """A non-2xx answer (other than an invalid workflow on validate), with the API's stable error code.

    A server that cannot be reached raises it too: status 0 and code CONNECTION_FAILED, or TIMEOUT when the connection
    or the answer takes longer than `timeout` seconds, naming the URL.
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
        req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return res.status, _parse(res.read())
        except urllib.error.HTTPError as e:
            try:
                raw = e.read()
            except (TimeoutError, socket.timeout, OSError) as read_error:
                code = "TIMEOUT" if isinstance(read_error, (TimeoutError, socket.timeout)) else "CONNECTION_FAILED"
                raise FlowbenchError(e.code, code, f"{method} {self.base_url + path}: reading the {e.code} answer failed ({read_error})") from None
            parsed = _parse(raw)
            if e.code in accept:
                return e.code, parsed
            err = parsed.get("error", {}) if isinstance(parsed, dict) else {}
            raise FlowbenchError(e.code, err.get("code", f"HTTP_{e.code}"), err.get("message", str(e)), err.get("details"), parsed) from None
        except urllib.error.URLError as e:
            # a connect that times out arrives wrapped: URLError(reason=TimeoutError)
            if isinstance(e.reason, (TimeoutError, socket.timeout)):
                raise FlowbenchError(0, "TIMEOUT", f"{method} {self.base_url + path}: no connection within {self.timeout} s") from None
            raise FlowbenchError(0, "CONNECTION_FAILED", f"could not reach Flowbench at {self.base_url + path} ({e.reason})") from None
        except (TimeoutError, socket.timeout, OSError) as e:
            # the connection was made, but the answer (or its body) did not come in time or broke off
            code = "TIMEOUT" if isinstance(e, (TimeoutError, socket.timeout)) else "CONNECTION_FAILED"
            raise FlowbenchError(0, code, f"{method} {self.base_url + path}: {e}") from None

    def list_node_types(self) -> Dict[str, Any]:
        """The node-type contract (GET /api/builder/node-types)."""
        return self.request("GET", "/api/builder/node-types")[1]

    def validate_workflow(self, workflow: Dict[str, Any]) -> Dict[str, Any]:
        """Validates without storing. Returns {"valid", "errors", "warnings"}; an invalid workflow is not an exception."""
        status, body = self.request("POST", "/api/builder/validate", {"workflow": workflow}, accept=(400,))
        if not isinstance(body, dict) or not isinstance(body.get("valid"), bool):
            # a 400 that is not a validation result (e.g. INVALID_JSON, REQUEST_INVALID): keep the server's code and message
            err = body.get("error", {}) if isinstance(body, dict) else {}
            raise FlowbenchError(status, err.get("code", "REQUEST_INVALID"), err.get("message", "the server did not return a validation result"), err.get("details"), body)
        return {"valid": body["valid"], "errors": body["errors"], "warnings": body["warnings"]}

    def get_recipe(self, name: str) -> Dict[str, Any]:
        return self.request("GET", "/api/builder/recipes/" + urllib.parse.quote(name))[1]

    def create_agent(self, name: str, workflow: Dict[str, Any], description: str = "", note: str = "") -> Dict[str, Any]:
        """Provisions a new agent (version 1). Raises FlowbenchError WORKFLOW_INVALID with the findings as details."""
        return self.request("POST", "/api/builder/agents", {"name": name, "description": description, "workflow": workflow, "note": note})[1]

    def add_version(self, agent_id: str, workflow: Dict[str, Any], note: str = "") -> Dict[str, Any]:
        return self.request("POST", f"/api/builder/agents/{urllib.parse.quote(agent_id)}/versions", {"workflow": workflow, "note": note})[1]


def _parse(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except ValueError:
        return raw.decode("utf-8", "replace")
