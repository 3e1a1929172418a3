import { describe, expect, it } from 'vitest';
import { shardedPubSubProblem } from './cluster-adapter.ts';

describe('the Redis the sharded adapter needs', () => {
  it('accepts Redis 7 and later', () => {
    expect(shardedPubSubProblem('# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n')).toBeNull();
    expect(shardedPubSubProblem('# Server\r\nredis_version:8.2.1\r\n')).toBeNull();
  });

  it('names an older Redis and what it breaks', () => {
    expect(shardedPubSubProblem('# Server\r\nredis_version:6.2.14\r\n')).toBe(
      'Redis 6.2 has no sharded pub/sub (Redis 7.0 or later): real-time events will not reach other server processes',
    );
  });

  it('says nothing when the answer names no version', () => {
    expect(shardedPubSubProblem('# Server\r\n')).toBeNull();
  });
});
