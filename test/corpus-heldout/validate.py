#!/usr/bin/env python3
"""Validate the held-out excerpts in this directory and print their counts.

Checks: three '# ' header lines (source, what, versions); every record has at
least two tabs; stage and component from the tables of ../corpus/README.md
(main corpus); UTF-8 with LF line ends; 1-40 records per excerpt (later blind
briefs ask for 4-25 and keep a shorter or longer post whole); source URL
not used by any '# source:' line under the main corpus or the previous held-out
sets, now all in ../corpus (trailing slashes, #anchors and comment ids ignored); one excerpt per
thread; at most three excerpts per repository or gist author, eight per site outside GitHub.
"""
import collections, glob, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
# (the earlier held-out sets were moved into ../corpus once tuned on)
OTHER_DIRS = [os.path.join(HERE, '..', 'corpus')]
STAGES = ['provision', 'attach', 'mount', 'unmount', 'detach', 'delete',
          'register', 'resize', 'snapshot', 'other']
COMPONENTS = ['kubelet', 'attach-detach-controller', 'pv-controller',
              'external-provisioner', 'external-attacher', 'external-resizer',
              'external-snapshotter', 'node-driver-registrar',
              'csi-controller-plugin', 'csi-node-plugin', 'kube-scheduler', '-']


def norm(url):
    url = url.strip()
    url = url.split('#', 1)[0]
    url = re.sub(r'/(issuecomment|discussion_r|pullrequestreview)[-\w]*$', '', url)
    return url.rstrip('/')


def thread(url):
    u = norm(url)
    m = re.match(r'(https://github\.com/[^/]+/[^/]+/(issues|pull|discussions)/\d+)', u)
    return m.group(1) if m else u


def repo(url):
    g = re.match(r'https://gist\.github\.com/([^/]+)', norm(url))
    if g:
        return 'gist/' + g.group(1).lower()
    m = re.match(r'https://github\.com/([^/]+/[^/]+)', norm(url))
    return m.group(1).lower() if m else re.sub(r'^https?://([^/]+).*', r'\1', url)


def sources_in(d):
    out = set()
    for f in glob.glob(os.path.join(d, '*.log')):
        with open(f, encoding='utf-8') as fh:
            for line in fh:
                if line.startswith('# source:'):
                    out.add(thread(line[len('# source:'):]))
    return out


def main():
    errors = []
    used = set()
    for d in OTHER_DIRS:
        used |= sources_in(d)
    files = sorted(glob.glob(os.path.join(HERE, '[0-9]*.log')))
    stage_c, comp_c = collections.Counter(), collections.Counter()
    threads, repos = collections.defaultdict(list), collections.defaultdict(list)
    total = 0
    for f in files:
        name = os.path.basename(f)
        raw = open(f, 'rb').read()
        if b'\r' in raw:
            errors.append(f'{name}: CR line ends')
        try:
            text = raw.decode('utf-8')
        except UnicodeDecodeError as e:
            errors.append(f'{name}: not UTF-8 ({e})'); continue
        if not text.endswith('\n'):
            errors.append(f'{name}: no final LF')
        lines = text[:-1].split('\n') if text.endswith('\n') else text.split('\n')
        heads = lines[:3]
        for i, key in enumerate(['# source: ', '# what: ', '# versions: ']):
            if len(heads) <= i or not heads[i].startswith(key) or not heads[i][len(key):].strip():
                errors.append(f'{name}: header line {i+1} must start with {key!r}')
        recs = lines[3:]
        if not 1 <= len(recs) <= 40:
            errors.append(f'{name}: {len(recs)} records (want 1-40)')
        for n, r in enumerate(recs, 1):
            if r.count('\t') < 2:
                errors.append(f'{name}: record {n} has fewer than two tabs'); continue
            st, comp, _ = r.split('\t', 2)
            if st not in STAGES:
                errors.append(f'{name}: record {n} bad stage {st!r}')
            if comp not in COMPONENTS:
                errors.append(f'{name}: record {n} bad component {comp!r}')
            stage_c[st] += 1; comp_c[comp] += 1; total += 1
        if heads and heads[0].startswith('# source: '):
            url = heads[0][len('# source: '):]
            t = thread(url)
            if t in used:
                errors.append(f'{name}: source {t} already used in {OTHER_DIRS}')
            threads[t].append(name); repos[repo(url)].append(name)
    for t, names in threads.items():
        if len(names) > 1:
            errors.append(f'thread {t} used by {len(names)} excerpts: {names}')
    for r, names in repos.items():
        # (a repository or a gist author: three; a site outside GitHub, where each page is another author's, eight)
        cap = 3 if '/' in r else 8
        if len(names) > cap:
            errors.append(f'repository or site {r} gives {len(names)} excerpts (max {cap}): {names}')

    print(f'{len(files)} excerpts, {total} lines')
    print('\n| Stage | Lines |\n|---|---:|')
    for s in STAGES:
        print(f'| {s} | {stage_c[s]} |')
    print(f'| **total** | **{total}** |')
    print('\n| Component | Lines |\n|---|---:|')
    for c, n in sorted(comp_c.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f'| {c} | {n} |')
    print('\nrepositories with more than one excerpt:',
          ', '.join(f'{r} ({len(v)})' for r, v in sorted(repos.items()) if len(v) > 1))
    if errors:
        print('\nFAIL')
        for e in errors:
            print(' -', e)
        return 1
    print('\nOK: all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
