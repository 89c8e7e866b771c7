import { handle } from "@/server/http/endpoint";
import { evalPasteAnswers } from "@/server/http/endpoints/eval";

export const POST = handle(evalPasteAnswers);
