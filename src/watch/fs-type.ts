// Whether a folder lives on a file system whose changes OS events do not report: writes made by
// other machines to a network share (NFS, SMB/CIFS) and FUSE mounts (sshfs, rclone, some
// USB-stick and phone mounts) reach no inotify watch here. There, the watcher polls. Linux
// reports the type through statfs; elsewhere nothing is assumed and --poll decides.

import fs from 'node:fs/promises';

/** statfs f_type magic numbers (linux/magic.h) of file systems to poll. */
const POLLED_TYPES: Readonly<Record<number, string>> = {
  0x6969: 'nfs',
  0x517b: 'smb',
  0xff534d42: 'cifs',
  0xfe534d42: 'smb2',
  0x65735546: 'fuse',
  0x564c: 'ncp',
  0x73757245: 'coda',
  0x47504653: 'gpfs',
  0x61636673: 'acfs',
};

/** The name of the file system type that calls for polling, or undefined. */
export function pollingFileSystem(type: number): string | undefined {
  return POLLED_TYPES[type >>> 0];
}

export async function fileSystemToPoll(dir: string): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  const stats = await fs.statfs(dir).catch(() => undefined);
  return stats === undefined ? undefined : pollingFileSystem(Number(stats.type));
}
