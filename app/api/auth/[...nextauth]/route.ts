import { authRoute } from "@/server/auth/nextauth";

export { authRoute as GET, authRoute as POST };
