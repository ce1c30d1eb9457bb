import CheckCircleFilled from '@ant-design/icons-svg/es/asn/CheckCircleFilled';
import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import InfoCircleFilled from '@ant-design/icons-svg/es/asn/InfoCircleFilled';
import { useSyncExternalStore } from 'react';
import { MESSAGE_DURATION_SECONDS } from '@portal/shared';
import { Icon } from './Icon';

/**
 * Short messages at the top of the page without Ant Design (the public site does not load it):
 * 3 seconds each (spec section 9), at most 3 at once, read out by screen readers through a polite
 * live region that is always in the page.
 */
export type ToastKind = 'success' | 'info' | 'error';
interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

const ICONS = { success: CheckCircleFilled, info: InfoCircleFilled, error: CloseCircleFilled };
const MAX_TOASTS = 3;
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function showToast(kind: ToastKind, text: string): void {
  const id = nextId++;
  publish([...toasts, { id, kind, text }].slice(-MAX_TOASTS));
  setTimeout(() => publish(toasts.filter((toast) => toast.id !== id)), MESSAGE_DURATION_SECONDS * 1000);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function Toasts() {
  const shown = useSyncExternalStore(subscribe, () => toasts);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {shown.map(({ id, kind, text }) => (
        <div key={id} className={`toast toast-${kind}`}>
          <Icon icon={ICONS[kind]} />
          <span>{text}</span>
        </div>
      ))}
    </div>
  );
}
