import * as builder from "./builder";
import * as evaluation from "./eval";
import * as mcp from "./mcp";
import * as runtime from "./runtime";
import * as system from "./system";
import type { Endpoint } from "../endpoint";

/** Every REST endpoint of the app. The OpenAPI document is generated from this list; a test checks that every
 * app/api route file is listed here, so no path goes undocumented. */
export const ENDPOINTS: Endpoint[] = [...Object.values(builder), ...Object.values(system), ...Object.values(runtime), ...Object.values(evaluation), ...Object.values(mcp)] as unknown as Endpoint[];
