import { handle } from "@/server/http/endpoint";
import { health } from "@/server/http/endpoints/system";

export const GET = handle(health);
