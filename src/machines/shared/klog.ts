/**
 * klog line header and journald prefix.
 * upstream: k8s.io/klog/v2 internal/buffer/buffer.go FormatHeader:
 *   Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg   (threadid = PID, right-aligned to 7 columns)
 * journald (systemd) adds "Mon dd hh:mm:ss host ident[pid]: " for host daemons such as the kubelet.
 */
import { monthAbbrev, pad, wallClock } from './goFormat.ts';
import type { Severity } from './messages.ts';

export interface LogStream {
  /** PID printed in the klog header (1 for a container's main process) */
  pid: number;
  /** UTC offset of the process's clock, in minutes (containers often log in UTC, hosts in local time) */
  tzOffsetMin: number;
  /** journald prefix: host name and syslog identifier, for processes run by systemd */
  journald?: { host: string; ident: string };
}

export function klogHeader(sev: Severity, epochUs: number, stream: LogStream, file: string, line: number): string {
  const shifted = epochUs + stream.tzOffsetMin * 60_000_000;
  const second = Math.floor(shifted / 1_000_000);
  const micro = shifted - second * 1_000_000;
  return `${sev}${secondText(second, shifted)}.${pad(micro, 6)} ${pad(stream.pid, 7, ' ')} ${file}:${line}] `;
}

// Lines come in time order, many within the same second: "mmdd hh:mm:ss" is worked out once per second.
let lastSecond = NaN;
let lastSecondText = '';
function secondText(second: number, shiftedUs: number): string {
  if (second !== lastSecond) {
    const w = wallClock(shiftedUs, 0);
    lastSecondText = `${pad(w.month, 2)}${pad(w.day, 2)} ${pad(w.hour, 2)}:${pad(w.minute, 2)}:${pad(w.second, 2)}`;
    lastSecond = second;
  }
  return lastSecondText;
}

export function journaldPrefix(epochUs: number, stream: LogStream): string {
  if (!stream.journald) return '';
  const w = wallClock(epochUs, stream.tzOffsetMin);
  return `${monthAbbrev(w.month)} ${pad(w.day, 2)} ${pad(w.hour, 2)}:${pad(w.minute, 2)}:${pad(w.second, 2)} ${stream.journald.host} ${stream.journald.ident}[${stream.pid}]: `;
}
