"""Flowbench Python SDK: a small client over the REST API using only the standard library.

    from flowbench import Client
    client = Client("http://localhost:3000", token="...")      # or FLOWBENCH_URL / FLOWBENCH_TOKEN
    client.list_node_types()
    client.validate_workflow({"nodes": [...], "edges": [...]})  # {"valid", "errors", "warnings"}; never raises for an invalid workflow
"""

from .client import Client, FlowbenchError

__all__ = ["Client", "FlowbenchError"]
__version__ = "0.1.0"
