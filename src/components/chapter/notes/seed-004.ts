/**
 * Annotations for the ceph-csi log lines quoted from seed 004 (src/data/seeds/seed-004.log), one per
 * line in the file's order, one group per flow. Written for this site.
 */
import type { NoteGroup } from '../seeds.ts';

export const SEED_004_NOTES: NoteGroup[] = [
  {
    title: 'Create: reserve in the journal, then create the image',
    notes: [
      'CreateVolume looks the request name (pvc-<uid>) up in the directory omap csi.volumes.default. Empty: no earlier attempt left a reservation, so this is a new volume.',
      'The reservation: key csi.volume.<request name>, value a fresh UUID. From now on a retry of the same request finds it and reuses it.',
      'A per-volume omap object csi.volume.<UUID> is written with the image name to use (csi-vol-<UUID>) and the request name.',
      'The CSI volume ID is composed: cluster ID, pool ID and the UUID. This string becomes the PV\'s volumeHandle, so DeleteVolume can later find the journal entry from it alone.',
      'Only now is the RBD image created (layering only). A crash between the reservation and this line leaves a reservation without an image: the retry finds it, sees no image, removes the stale entries and reserves again, so one request never ends up with two images.',
      'The image exists; the request is as good as done.',
      'Last, the image ID ceph assigned is stored in the per-volume omap (csi.imageid); deletion will need it to purge the image from the trash.',
    ],
  },
  {
    title: 'Clone: two snapshots and a -temp image',
    notes: [
      'The new claim\'s dataSource is the first PVC, so CreateVolume arrives with that volume\'s ID; its journal entry gives the parent image name.',
      'No reservation yet for the new request name.',
      'Reserve: request name of the clone to a new UUID.',
      'The clone\'s per-volume omap, as for a plain create.',
      'The clone\'s volume ID and image name.',
      'Snapshot of the parent, named after the new image plus "-temp". The article\'s line stops at "using mon"; the part before "@" is empty in ceph-csi\'s own message.',
      'A temporary image <new>-temp is cloned from that snapshot.',
      'The parent\'s snapshot is deleted right away, so the source volume keeps no extra snapshot around.',
      'A second snapshot, this time of the -temp image, named after the final image.',
      'The final image is cloned from the -temp image\'s snapshot: its parent is the -temp image, not the source volume.',
      'That snapshot goes too. The -temp image stays as the final image\'s parent.',
      'The clone\'s image ID is stored; the journal entry is complete.',
    ],
  },
  {
    title: 'Delete: the trash, then the journal',
    notes: [
      'DeleteVolume carries only the volume ID. ceph-csi takes the UUID from its end and reads the per-volume omap to learn the image name.',
      'This driver runs the rbd command line and logs every command it runs. The simulated ceph-csi does not print these lines.',
      'The rbd info call found the image.',
      'Before the image itself, a leftover <image>-temp from an interrupted clone would be removed; there is none, the usual case.',
      'Now the image.',
      'The image is moved to the RBD trash, not removed at once.',
      'The driver asks the ceph manager to purge the trashed image in the background, by image ID. The simulated ceph-csi prints the same request in upstream\'s words ("adding task to remove image … from trash"), a different message, so this line is not matched.',
      'The ceph CLI call that queues the task.',
      'The manager answers with the queued task: action "trash remove" for image id 2aa2c1b62ed876.',
      'The CLI call ended normally.',
      'Last, the request name\'s reservation is removed from csi.volumes.default. The article does not show the per-volume omap going away; the simulated journal above removes it too.',
    ],
  },
];
