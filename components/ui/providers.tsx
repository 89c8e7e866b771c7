"use client";

import type { ReactNode } from "react";
import { ConfirmProvider } from "./dialog";
import { ToastProvider } from "./toast";

/** App-wide UI services: toasts and the confirmation dialog (useToast, useConfirm). */
export function UiProviders({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <ConfirmProvider>{children}</ConfirmProvider>
    </ToastProvider>
  );
}
