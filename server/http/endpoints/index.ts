import * as admin from "./admin";
import * as builder from "./builder";
import * as evaluation from "./eval";
import * as mcp from "./mcp";
import * as runtime from "./runtime";
import * as system from "./system";
import * as metrics from "./metrics";
import * as webhooks from "./webhooks";
import { defineEndpoint, type Endpoint } from "../endpoint";
import { openapiDocument } from "../openapi";

/** This document: generated from ENDPOINTS below (it is one of them), so it lives beside the list. */
export const openapi = defineEndpoint({
  method: "GET",
  path: "/api/openapi.json",
  operationId: "openapi",
  summary: "This OpenAPI 3.1 document (no auth)",
  tag: "System",
  auth: "none",
  responses: { 200: { description: "OpenAPI 3.1 JSON" } },
  handler: async () => ({ status: 200, body: openapiDocument(ENDPOINTS) }),
});

/** Every REST endpoint of the app. The OpenAPI document is generated from this list; a test checks that every
 * app/api route file is listed here, so no path goes undocumented. */
export const ENDPOINTS: Endpoint[] = [
  ...Object.values(builder),
  ...Object.values(system),
  ...Object.values(metrics),
  openapi,
  ...Object.values(runtime),
  ...Object.values(evaluation),
  ...Object.values(mcp),
  ...Object.values(webhooks),
  ...Object.values(admin),
] as unknown as Endpoint[];
