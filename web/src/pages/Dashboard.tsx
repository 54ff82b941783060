import { useQuery } from '@tanstack/react-query';
import { api, must, PRIORITIES, STATUSES } from '../api.js';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

interface Bar {
  label: string;
  value: number;
}

/** A horizontal bar chart in SVG, named for assistive technology by its figures. */
function Bars({ title, bars, tone }: { title: string; bars: Bar[]; tone: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 30;
  const width = 420;
  const labelWidth = 130;
  const height = Math.max(row, bars.length * row);
  const summary = `${title}: ${bars.map((b) => `${b.label} ${b.value}`).join(', ') || 'nothing yet'}`;
  return (
    <figure className="card chart">
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} className={`bars tone-${tone}`}>
        {bars.map((b, i) => {
          const w = ((width - labelWidth - 50) * b.value) / max;
          return (
            <g key={b.label} transform={`translate(0 ${i * row})`}>
              <text x={labelWidth - 8} y={row / 2 + 5} textAnchor="end" className="bar-label">{b.label}</text>
              <rect x={labelWidth} y={6} width={Math.max(w, 2)} height={row - 12} rx={4} className="bar" />
              <text x={labelWidth + Math.max(w, 2) + 6} y={row / 2 + 5} className="bar-value">{b.value}</text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="card figure">
      <p className="figure-value">{value}</p>
      <p className="figure-label">{label}</p>
    </div>
  );
}

const duration = (seconds: number | null) => {
  if (seconds === null) return '—';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
};

export function DashboardPage() {
  const dashboard = useQuery({ queryKey: ['dashboard'], queryFn: async () => must(await api.GET('/v1/dashboard')), refetchInterval: 60_000 });
  const d = dashboard.data;
  return (
    <main id="main" className="page dashboard">
      <h1>Dashboard</h1>
      {dashboard.isError && <p role="alert" className="alert error">{dashboard.error.message}</p>}
      {d && (
        <>
          <div className="figures">
            <Figure label="Open tickets" value={d.open.total} />
            <Figure label="Unassigned" value={d.open.unassigned} />
            <Figure label="Overdue" value={d.open.overdue} />
            <Figure label="Created, last 24 h" value={d.created.last_24_hours} />
            <Figure label="Resolved, last 24 h" value={d.resolved.last_24_hours} />
            <Figure label="Median resolution (30 days)" value={duration(d.resolution_last_30_days.median_seconds)} />
          </div>
          <div className="charts">
            <Bars title="Tickets by status" tone="blue" bars={STATUSES.map((s) => ({ label: capital(s), value: d.tickets.by_status[s] }))} />
            <Bars title="Open tickets by priority" tone="orange" bars={PRIORITIES.map((p) => ({ label: capital(p), value: d.open.by_priority[p] }))} />
            <Bars title="Open tickets by team" tone="green" bars={d.open_by_team.slice(0, 10).map((t) => ({ label: t.name, value: t.open }))} />
            <Bars title="Open tickets by agent" tone="purple" bars={d.open_by_agent.slice(0, 10).map((a) => ({ label: a.full_name, value: a.open }))} />
            <Bars
              title="Created and resolved, last 7 days"
              tone="blue"
              bars={[
                { label: 'Created', value: d.created.last_7_days },
                { label: 'Resolved', value: d.resolved.last_7_days },
              ]}
            />
          </div>
          <p className="hint">Figures as of {new Date(d.generated_at).toLocaleString()}.</p>
        </>
      )}
    </main>
  );
}
