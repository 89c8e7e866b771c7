import { handle, otherMethods } from "@/server/http/endpoint";
import { adminGetModelPrices, adminPutModelPrices } from "@/server/http/endpoints/eval";

export const GET = handle(adminGetModelPrices);
export const PUT = handle(adminPutModelPrices);
export const { POST, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "PUT"]);
