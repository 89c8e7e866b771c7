"use client";

import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Kbd } from "@/components/ui/kbd";
import { SHORTCUTS } from "../annotation-keys";

/** The ? help: every annotation shortcut. */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title="Keyboard shortcuts"
      description="They work anywhere in the annotation view except while you type in a field."
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <dl className="space-y-2 text-sm">
        {SHORTCUTS.map((s) => (
          <div key={s.action} className="flex items-center justify-between gap-4">
            <dt className="text-slate-700">{s.label}</dt>
            <dd className="flex gap-1">
              {s.keys.map((k) => (
                <Kbd key={k}>{k}</Kbd>
              ))}
            </dd>
          </div>
        ))}
        <div className="flex items-center justify-between gap-4">
          <dt className="text-slate-700">In the fail dialog: save</dt>
          <dd className="flex gap-1">
            <Kbd>Ctrl</Kbd>
            <Kbd>Enter</Kbd>
          </dd>
        </div>
      </dl>
    </Dialog>
  );
}
