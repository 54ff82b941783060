/** Small pieces shared by the pages. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}

export function PriorityBadge({ priority }: { priority: string }) {
  return <span className={`badge prio prio-${priority}`}>{priority}</span>;
}
