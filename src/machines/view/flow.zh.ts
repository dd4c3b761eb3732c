/**
 * A flow model in Simplified Chinese, for the /zh/ pages: each step's summary and "why" from the zh
 * catalogs, rendered from the same arguments as the English. A log step names its message (msg,
 * args); any other step's summary is one of the components' summary templates (SUMMARIES_ZH ids), so
 * its arguments are read back from the English text, and accepted only when rendering the English
 * template with them gives that text again. A step with no translation keeps its English summary,
 * marked `summaryLang: "en"`. Runs at build time (Node); the browser gets the finished model.
 */
import type { StepCause, Trace, TraceStep } from '../cluster/trace.ts';
import { ALL_SUMMARIES, CATALOG_ZH, SUMMARIES_ZH } from '../catalog.zh.ts';
import { renderTemplate, type LogArgs } from '../shared/messages.ts';
import type { FlowModel } from './flow.ts';

const EVENT_ZH: Record<string, string> = { added: '新增', modified: '修改', deleted: '删除' };

function timerTextZh(key: string): string {
  switch (key.split(':')[0]) {
    case 'reconcile': return '它的协调循环又一次运行';
    case 'nodeStatus': return '它该更新节点状态了';
    case 'podWait': return 'Pod 等待卷的 2m3s 超时已到';
    case 'podStart': return 'Pod 的容器已启动完毕';
    case 'csi': return '后端完成了这次调用的工作';
    case 'poll': return '它对 VolumeAttachment 的轮询到期';
    case 'monitorNodeHealth': return '它的节点健康检查又一次运行';
    case 'probe': return '它对驱动 Probe 的重试到期';
    default:
      if (/^(va|pv)\//.test(key)) return `对 ${key.startsWith('va/') ? 'VolumeAttachment' : 'PersistentVolume'} ${key.slice(3)} 的限速重试到期`;
      return `它的定时器“${key}”到期`;
  }
}

/** causeText (flow.ts) in Chinese. */
export function causeTextZh(c: StepCause): string {
  switch (c.kind) {
    case 'watch': return `它的 informer 看到 ${c.object} 被${EVENT_ZH[c.event] ?? c.event}`;
    case 'list': return `它的 informer 在启动时列出了 ${c.object}`;
    case 'api-result': return `API 服务器回应了它对 ${c.object} 的 ${c.verb}（${c.code}）`;
    case 'request': return '这是同一次反应的一部分';
    case 'csi-request': return `来自 ${c.from} 的 ${c.rpc} 调用到达`;
    case 'csi-reply': return `${c.rpc} 的回应到达（${c.code}）`;
    case 'deadline': return `它的 ${c.rpc} 调用在超时前没有得到回应`;
    case 'host': return `它在节点上对卷内文件的 ${c.op} 遍历结束了`;
    case 'timer': return timerTextZh(c.key);
    case 'socket': return `插件监视器看到了套接字 ${c.path}`;
    case 'start': return '组件启动了';
    case 'user': return '场景中的操作';
  }
}

interface Matcher { id: string; re: RegExp; names: Array<{ name: string; quote: boolean }> }
let MATCHERS: Matcher[] | undefined;

/** One regular expression per English summary template: its text literally, each {placeholder} a group. */
function matchers(): Matcher[] {
  if (MATCHERS) return MATCHERS;
  MATCHERS = Object.entries(ALL_SUMMARIES).filter(([id]) => SUMMARIES_ZH[id] !== undefined).map(([id, tpl]) => {
    const names: Matcher['names'] = [];
    let src = '^';
    let last = 0;
    for (const m of tpl.matchAll(/\{([A-Za-z0-9_]+)(?::(q))?\}/g)) {
      src += tpl.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const quote = m[2] === 'q';
      src += quote ? '("(?:[^"\\\\]|\\\\.)*")' : '([\\s\\S]*?)';
      names.push({ name: m[1]!, quote });
      last = m.index! + m[0].length;
    }
    src += `${tpl.slice(last).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
    return { id, re: new RegExp(src), names };
  });
  return MATCHERS;
}

/** The summary template and arguments an English summary was rendered from, or undefined. */
export function readSummary(text: string): { id: string; args: LogArgs } | undefined {
  for (const m of matchers()) {
    const hit = m.re.exec(text);
    if (!hit) continue;
    const args: LogArgs = {};
    let ok = true;
    m.names.forEach((n, i) => {
      const v = hit[i + 1]!;
      if (!n.quote) { args[n.name] = v; return; }
      try { args[n.name] = JSON.parse(v) as string; } catch { ok = false; }
    });
    if (!ok) continue;
    try {
      if (renderTemplate(ALL_SUMMARIES[m.id]!, args) === text) return { id: m.id, args };
    } catch { /* a placeholder used twice with different values: not this template */ }
  }
  return undefined;
}

const ENDPOINT_ZH: Record<string, string> = {
  'the CSI controller plugin': 'CSI 控制器插件', 'the CSI node plugin': 'CSI 节点插件', "node-driver-registrar's registration socket": 'node-driver-registrar 的注册套接字',
};
/** An API verb as prose.ts words it (present and infinitive) and its Chinese around the object. */
const VERB_ZH: Record<string, [string, string]> = {
  creates: ['创建', ''], updates: ['更新', ''], 'updates the status of': ['更新', ' 的状态'], patches: ['修补', ''], 'patches the status of': ['修补', ' 的状态'], deletes: ['删除', ''], reads: ['读取', ''],
  create: ['创建', ''], update: ['更新', ''], 'update the status of': ['更新', ' 的状态'], patch: ['修补', ''], 'patch the status of': ['修补', ' 的状态'], delete: ['删除', ''], read: ['读取', ''],
};
const verbZh = (verb: string, what: string): string => `${VERB_ZH[verb]![0]} ${what}${VERB_ZH[verb]![1]}`;
const KINDS = 'Pod|Node|PersistentVolumeClaim|PersistentVolume|VolumeAttachment|StorageClass|CSIDriver|CSINode|StatefulSet|Event|VolumeSnapshot|VolumeSnapshotContent|VolumeSnapshotClass|Lease';
const VERBS = Object.keys(VERB_ZH).sort((a, b) => b.length - a.length).join('|');

/**
 * The sentences the cluster writes itself (cluster/prose.ts: a CSI call or answer, an Event, an API
 * write without a summary of its own, a state move, a user action), read back and said in Chinese.
 */
const PROSE: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^(\S+) calls (\w+) on (the CSI controller plugin|the CSI node plugin|node-driver-registrar's registration socket)\.$/, (m) => `${m[1]} 调用 ${ENDPOINT_ZH[m[3]!]}的 ${m[2]}。`],
  [/^The CSI plugin answers (\w+|a call): OK(, but the caller has already given up waiting)?\.$/, (m) => `CSI 插件回应 ${m[1] === 'a call' ? '一次调用' : m[1]}：OK${m[2] ? '，但调用方已经不再等待' : ''}。`],
  [/^The CSI plugin answers (\w+|a call): (\w+) \(([\s\S]*)\)(, but the caller has already given up waiting)?\.$/, (m) => `CSI 插件回应 ${m[1] === 'a call' ? '一次调用' : m[1]}：${m[2]}（${m[3]}）${m[4] ? '，但调用方已经不再等待' : ''}。`],
  [new RegExp(`^(\\S+) records a (Normal|Warning) event (\\w+) on (${KINDS}) (\\S+): ([\\s\\S]*)$`), (m) => `${m[1]} 在 ${m[4]} ${m[5]} 上记录了一个 ${m[2]} 事件 ${m[3]}：${m[6]}`],
  // before the generic "<who> <verb> <kind> <name>" rule, which would take "You" for a component's name
  [new RegExp(`^You (create|delete|patch) (${KINDS}) (\\S+)\\.$`), (m) => `你${verbZh(m[1]!, `${m[2]} ${m[3]}`)}。`],
  [new RegExp(`^(\\S+) fails to (${VERBS}) (${KINDS}) (\\S+): ([\\s\\S]*)\\.$`), (m) => `${m[1]} ${verbZh(m[2]!, `${m[3]} ${m[4]}`)}失败：${m[5]}。`],
  // the fields a write changed (prose.ts changedFields): " (status.conditions)"
  [new RegExp(`^(\\S+) (${VERBS}) (${KINDS}) (\\S+?)(?:: ([\\w.,\\s-]+)| \\(([\\w.,\\s-]+)\\))?\\.$`), (m) => `${m[1]} ${verbZh(m[2]!, `${m[3]} ${m[4]}`)}${m[5] ?? m[6] ? `（${m[5] ?? m[6]}）` : ''}。`],
  [/^(\S+) on (\S+) moves from state (\S+) to (\S+)\.$/, (m) => `${m[2]} 上的 ${m[1]} 从状态 ${m[3]} 进入 ${m[4]}。`],
  [/^(\S+) on (\S+) restarts: its machine is back in state (\S+) \(was (\S+)\)\.$/, (m) => `${m[2]} 上的 ${m[1]} 重启：它的状态机回到 ${m[3]}（之前是 ${m[4]}）。`],
  [/^(\S+) on (\S+) exits with status (\d+); the kubelet starts its container again at once \(its first restart\)\.$/, (m) => `${m[2]} 上的 ${m[1]} 以状态 ${m[3]} 退出；kubelet 立即再次启动它的容器（第一次重启）。`],
  [/^(\S+) on (\S+) exits with status (\d+); the kubelet starts its container again once the CrashLoopBackOff of (\d+)s has passed\.$/, (m) => `${m[2]} 上的 ${m[1]} 以状态 ${m[3]} 退出；kubelet 在 ${m[4]} 秒的 CrashLoopBackOff 退避之后再次启动它的容器。`],
  [/^Node (\S+) shuts down: every process on it stops\.$/, (m) => `节点 ${m[1]} 关机：它上面的所有进程都停止了。`],
  [/^Node (\S+) boots\.$/, (m) => `节点 ${m[1]} 启动。`],
  [/^The (\S+) process restarts: it forgets what it held in memory and lists everything again\.$/, (m) => `${m[1]} 进程重启：它忘掉内存中的一切，重新列出所有对象。`],
];

function proseZh(text: string): string | undefined {
  for (const [re, say] of PROSE) {
    const m = re.exec(text);
    if (m) return say(m);
  }
  return undefined;
}

/** A step's summary in Chinese, or undefined when the catalogs have none for it. */
export function summaryZh(step: Pick<TraceStep, 'summary' | 'msg' | 'args' | 'variant'>): string | undefined {
  const text = step.msg ? CATALOG_ZH[step.msg] : undefined;
  const zh = step.variant ? text?.variants?.[step.variant] : text?.summary;
  if (zh && step.args) {
    try { return renderTemplate(zh, step.args); } catch { /* fall through to the summary templates */ }
  }
  const read = readSummary(step.summary);
  if (read) {
    try { return renderTemplate(SUMMARIES_ZH[read.id]!, read.args); } catch { /* fall through */ }
  }
  return proseZh(step.summary);
}

/** The model with every step's summary and why in Chinese where the catalogs have it. */
export function flowModelZh(model: FlowModel, trace: Pick<Trace, 'steps'>): FlowModel {
  return {
    ...model,
    steps: model.steps.map((s) => {
      const zh = summaryZh(trace.steps[s.i - 1] ?? s);
      return {
        ...s,
        ...(zh ? { summary: zh } : { summaryLang: 'en' }),
        ...(s.cause ? { why: causeTextZh(s.cause) } : {}),
      };
    }),
  };
}
