import { handleTrpc } from "@/server/api/handler";

export { handleTrpc as GET, handleTrpc as POST };
