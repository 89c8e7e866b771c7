import { handle } from "@/server/http/endpoint";
import { validate } from "@/server/http/endpoints/builder";

export const POST = handle(validate);
