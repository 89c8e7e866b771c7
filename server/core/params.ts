import { z } from "zod";

/** The path/input shape `{ id }` of one resource (cuid or short Run ID), shared by the REST and tRPC faces. */
export const IdParam = z.object({ id: z.string().min(1).max(64) });
