import * as builder from "./builder";
import * as mcp from "./mcp";
import * as system from "./system";
import type { Endpoint } from "../endpoint";

/** Every REST endpoint of the app. The OpenAPI document is generated from this list; a test checks that every
 * app/api route file is listed here, so no path goes undocumented. */
export const ENDPOINTS: Endpoint[] = [...Object.values(builder), ...Object.values(system), ...Object.values(mcp)] as unknown as Endpoint[];
