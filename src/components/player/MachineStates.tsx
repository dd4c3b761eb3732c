/**
 * The machines the step's component acted on (a volume's lifecycle, an operation, a
 * VolumeAttachment), each drawn as its chart's top-level states in definition order with the
 * current one highlighted, the one it left marked, and the events of that move. The charts come
 * from the machine definitions (FlowModel.charts, lifecycles.ts flowChart); the full chart is on the
 * component's page.
 */
import { memo } from 'react';
import { movesBetween, type FlowChart, type FlowModel, type StepMachine } from '../../machines/view/flow.ts';
import { anchorId } from '../catalog/format.ts';
import { fill, useText } from './text.ts';

const topOf = (path: string): string => path.split('.')[0]!;

const Chart = memo(function Chart({ chart, m, component }: { chart: FlowChart; m: StepMachine; component: string }) {
  const t = useText();
  const top = chart.states.filter((s) => s.depth === 1);
  const current = topOf(m.state);
  const left = m.from !== undefined && topOf(m.from) !== current ? topOf(m.from) : undefined;
  const inner = m.state.includes('.') ? m.state.slice(current.length + 1) : undefined;
  const events = m.from !== undefined ? movesBetween(chart, m.from, m.state) : [];
  const description = chart.states.find((s) => s.path === m.state)?.description ?? chart.states.find((s) => s.path === current)?.description;
  return (
    <li className="fp-machine" data-machine={chart.id}>
      <p className="fp-machine-head">
        <a href={`${fill(t.componentHref, { component })}#chart-${anchorId(chart.name)}`}><code>{chart.name}</code></a>
        {m.subject && <span className="fp-machine-subject"> {m.subject}</span>}
      </p>
      <ol className="fp-states" aria-label={fill(t.statesOf, { name: chart.name })}>
        {top.map((s) => {
          const here = s.path === current;
          const was = s.path === left;
          return (
            <li key={s.path} className={here ? 'is-current' : was ? 'is-left' : undefined} aria-current={here ? 'step' : undefined}
              title={s.description}>
              {s.path}
              {here && inner && <span className="fp-substate"> › {inner}</span>}
              {was && <span className="visually-hidden">{t.leftHere}</span>}
            </li>
          );
        })}
      </ol>
      <p className="fp-machine-move">
        {m.from !== undefined
          ? <>{t.moved} <code>{m.from}</code> → <code>{m.state}</code>{events.length ? <>{t.onEvents}<code>{events.join(', ')}</code></> : null}.</>
          : <>{t.inState} <code>{m.state}</code>.</>}
        {description && <> <span className="fp-muted">{description}</span></>}
      </p>
    </li>
  );
});

export function MachineStates({ model, step, H }: { model: FlowModel; step: number; H: 'h3' | 'h4' }) {
  const st = model.steps[step - 1];
  const acted = st?.machines ?? [];
  const t = useText();
  return (
    <div className="fp-machines">
      <H className="fp-group">{t.actedOn} <span className="fp-count">{acted.length}</span></H>
      {acted.length === 0
        ? <p className="fp-muted">{st?.state ? fill(t.leaves, { component: st.component, state: st.state }) : t.noMachineState}</p>
        : <ul className="fp-machine-list">{acted.map((m, i) => <Chart key={`${m.chart}|${m.subject}|${i}`} chart={model.charts[m.chart]!} m={m} component={st!.component} />)}</ul>}
    </div>
  );
}
