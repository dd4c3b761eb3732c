/** The one component registry: every component folder is in it once, and the lists derived from it agree with it. */
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMPONENTS, COMPONENT_FOLDERS } from '../../src/machines/registry.ts';
import { catalog, RESTARTABLE } from '../../src/machines/index.ts';
import { buildComponents } from '../../src/machines/scenarios/topology.ts';
import { SCENARIOS } from '../../src/machines/scenarios/index.ts';
import { DRIVERS } from '../../src/machines/drivers/index.ts';

describe('the component registry', () => {
  it('holds every folder that exports a component descriptor', () => {
    const dir = new URL('../../src/machines/', import.meta.url);
    const withDescriptor = readdirSync(dir).filter((d) => existsSync(new URL(`${d}/index.ts`, dir)))
      .filter((d) => /export const (descriptor|controllerDescriptor)\b/.test(readFileSync(new URL(`${d}/index.ts`, dir), 'utf8')));
    expect(COMPONENT_FOLDERS.length).toBe(withDescriptor.length);
    expect(new Set(COMPONENTS.map((c) => c.descriptor.name)).size).toBe(COMPONENTS.length);
  });

  it('names each component by its log messages\' prefix', () => {
    for (const c of COMPONENTS) {
      const own = Object.keys((c.folder.messages ?? {}) as object).filter((id) => id.startsWith(`${c.messagePrefix}.`));
      const empty = Object.keys((c.folder.messages ?? {}) as object).length === 0;
      expect(empty || own.length > 0, c.descriptor.name).toBe(true);
      for (const id of own) expect(catalog[id], id).toBeDefined();
    }
  });

  it('is what the standard topology starts, in its order, and what scenarios may restart', () => {
    const s = SCENARIOS.find((x) => x.id === 'pod-migration')!;
    const data = s.build({ k8s: '1.30', seed: 1, replicas: 1 });
    const driver = typeof data.driver === 'string' ? DRIVERS[data.driver]! : data.driver;
    const names = [...new Set(buildComponents(data, driver, '1.30', 1, 0).map((spec) => spec.descriptor.name))];
    expect(names).toEqual(COMPONENTS.map((c) => c.descriptor.name));
    expect(RESTARTABLE).toEqual(COMPONENTS.filter((c) => !c.notRestartable).map((c) => c.descriptor.name));
    // the kubelet restarts and reconstructs its volumes from the host; the CSI plugins stand for state that outlives them
    expect(RESTARTABLE).toContain('kubelet');
    expect(RESTARTABLE).not.toContain('csi-node-plugin');
  });
});
