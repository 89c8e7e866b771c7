import { router } from "../trpc";
import { BUILDER_OPERATIONS } from "../../agents/operations";
import { treeOf } from "../operations";

/** The builder face for the web canvas: every builder operation as declared in server/agents/operations.ts (input
 * convention: server/api/operations.ts). */
export const builderRouter = router(treeOf(BUILDER_OPERATIONS).builder);
