/** Small pieces shared by the pages. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}

export function PriorityBadge({ priority }: { priority: string }) {
  return <span className={`badge prio prio-${priority}`}>{priority}</span>;
}

/** A padlock: internal notes carry it beside their label. */
export function Lock() {
  return (
    <svg className="lock" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <rect x="2.5" y="7" width="11" height="8" rx="1.5" fill="currentColor" />
      <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
