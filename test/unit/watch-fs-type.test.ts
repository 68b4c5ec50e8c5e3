// The file systems the watcher polls instead of trusting OS events (statfs f_type numbers).

import { describe, expect, it } from 'vitest';
import { fileSystemToPoll, pollingFileSystem } from '../../src/watch/fs-type.js';

describe('pollingFileSystem', () => {
  it('names network and FUSE file systems, including magic numbers Node reports as negative', () => {
    expect(pollingFileSystem(0x6969)).toBe('nfs');
    expect(pollingFileSystem(0xff534d42)).toBe('cifs');
    expect(pollingFileSystem(0xfe534d42 | 0)).toBe('smb2');
    expect(pollingFileSystem(0x65735546)).toBe('fuse');
  });

  it('leaves local file systems to OS events', () => {
    for (const local of [0xef53 /* ext4 */, 0x01021994 /* tmpfs */, 0x794c7630 /* overlayfs */, 0x9123683e /* btrfs */, 0x58465342 /* xfs */])
      expect(pollingFileSystem(local)).toBeUndefined();
  });

  it('reads the type of a real folder (the test temp dir is local)', async () => {
    expect(await fileSystemToPoll(process.cwd())).toBeUndefined();
  });
});
