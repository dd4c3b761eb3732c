// Issue and pull request numbers as links: "kubernetes#117412" → github.com/kubernetes/kubernetes/issues/117412
// (GitHub redirects an issue URL to the pull request of that number). A bare "#72181" links to
// kubernetes/kubernetes only right after another kubernetes#… reference in the same text ("and the older #72181").
// Used where text comes from data (chapter frontmatter, component prose, the log catalog) through
// RefText.astro; the chapters' MDX bodies write their references as Markdown links.

const REPOS: Record<string, string> = {
  kubernetes: 'kubernetes/kubernetes',
  'external-attacher': 'kubernetes-csi/external-attacher',
  'external-provisioner': 'kubernetes-csi/external-provisioner',
  'external-resizer': 'kubernetes-csi/external-resizer',
  'external-snapshotter': 'kubernetes-csi/external-snapshotter',
  'node-driver-registrar': 'kubernetes-csi/node-driver-registrar',
  'ceph-csi': 'ceph/ceph-csi',
};

const REF = /\b(kubernetes|external-attacher|external-provisioner|external-resizer|external-snapshotter|node-driver-registrar|ceph-csi)#(\d{2,6})\b|(?<![\w/#])#(\d{4,6})\b/g;

/** Split text into plain and reference parts. */
export function splitRefs(text: string): Array<string | { text: string; href: string }> {
  const out: Array<string | { text: string; href: string }> = [];
  let last = 0;
  let repo: string | undefined;
  for (const m of text.matchAll(REF)) {
    const r = m[1] ? REPOS[m[1]] : repo;
    if (m[1]) repo = r;
    if (!r) continue;
    if (m.index! > last) out.push(text.slice(last, m.index));
    out.push({ text: m[0], href: `https://github.com/${r}/issues/${m[2] ?? m[3]}` });
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
