/**
 * The package as another team gets it: `npm pack`, installed into an empty project, used from plain
 * Node (the machine's own Node 20, not this repo's Node 22) and from Vitest running the README's
 * example test, extracted from README.md so the two cannot drift.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'csi-flows-consumer-'));
  // --ignore-scripts: `prepare` would rebuild dist/lib (tsc rewrites every file) while other test files
  // in the same run import it or spawn the CLI from it; a CLI test once read a half-written module.
  // npm test builds dist/lib before vitest runs.
  if (!existsSync(join(repo, 'dist/lib/machines/index.js'))) throw new Error('dist/lib is missing: run npm run build:lib (npm test does), then this test again');
  const tgz = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], { cwd: repo, encoding: 'utf8' }).trim().split('\n').pop()!;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { 'csi-flows': `file:./${tgz}` } }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: dir, encoding: 'utf8' });
  // Vitest itself comes from this repo: the consumer's test only needs to resolve it
  symlinkSync(join(repo, 'node_modules/vitest'), join(dir, 'node_modules/vitest'), 'dir');
}, 180_000);

afterAll(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

describe('the packed package', () => {
  it('ships the compiled library and no site code', () => {
    const files = execFileSync('tar', ['-tzf', join(dir, readFileSync(join(dir, 'package.json'), 'utf8').match(/file:\.\/([^"]+)/)![1]!)], { encoding: 'utf8' });
    expect(files).toContain('package/dist/lib/machines/index.js');
    expect(files).toContain('package/dist/lib/machines/index.d.ts');
    expect(files).not.toMatch(/src\/pages|astro|\.tsx/);
    expect(files).toContain('package/LICENSE');
    expect(files).toContain('package/src/machines/README.md');
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules/csi-flows/package.json'), 'utf8'));
    // yaml: manifests and the flow model's object views; xstate: a peer, so the consumer's own import is the same copy
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@noble/hashes', 'yaml']);
    expect(pkg.peerDependencies).toEqual({ xstate: expect.stringMatching(/^\^5\./) });
    expect(existsSync(join(dir, 'node_modules/xstate/package.json')), 'npm installs the peer').toBe(true);
    expect(existsSync(join(dir, 'node_modules/csi-flows/node_modules/xstate')), 'no second copy of xstate').toBe(false);
    expect(existsSync(join(dir, 'node_modules/astro'))).toBe(false);
  });

  it('runs a scenario from plain Node 20', () => {
    const node = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
    const out = execFileSync(node, ['--input-type=module', '-e', `
      import { runScenario, SCENARIOS, kubeletMachine } from 'csi-flows';
      const t = runScenario('attach', { k8s: '1.20' });
      console.log(JSON.stringify({ n: SCENARIOS.length, steps: t.steps.length, machine: typeof kubeletMachine.transition, log: t.steps.find((s) => s.log).log }));
    `], { cwd: dir, encoding: 'utf8' });
    const r = JSON.parse(out);
    expect(r.n).toBeGreaterThanOrEqual(13);
    expect(r.steps).toBeGreaterThan(10);
    expect(r.machine).toBe('function');
    expect(r.log).toMatch(/^[IWE]\d{4} /);
  });

  it('passes the README\'s consumer test under Vitest', () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const example = /```ts\n(import \{ describe[\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'README has a consumer test example').toBeDefined();
    mkdirSync(join(dir, 'test'), { recursive: true });
    writeFileSync(join(dir, 'test/example.test.ts'), example!);
    const out = execFileSync(process.execPath, [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--reporter=verbose'], { cwd: dir, encoding: 'utf8' });
    expect(out).toMatch(/3 passed/);
  });

  it('type-checks the README\'s test strictly against the package\'s types', () => {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], skipLibCheck: true, types: [] },
      include: ['test/example.test.ts'],
    }));
    const r = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('runs the CLI from the installed package: --version, and a scenario file with its fault', () => {
    const bin = join(dir, 'node_modules/.bin/csi-flows');
    expect(execFileSync(bin, ['--version'], { cwd: dir, encoding: 'utf8' }).trim()).toBe(`csi-flows ${JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version}`);
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const yaml = /const manifests = `([\s\S]*?)`;/.exec(readme)![1]!;
    writeFileSync(join(dir, 'scenario.yaml'), yaml);
    expect(execFileSync(bin, ['validate', 'scenario.yaml'], { cwd: dir, encoding: 'utf8' })).toMatch(/OK, scenario "our-runbook"/);
    const r = spawnSync(bin, ['trace', '--file', 'scenario.yaml', '--format', 'json'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).faults[0].fired).toHaveLength(1);
  });
});
