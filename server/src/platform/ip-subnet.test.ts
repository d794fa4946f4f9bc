import { describe, expect, it } from 'vitest';
import { isLoopback, plainAddress, subnetOf } from './ip-subnet.ts';

describe('subnetOf', () => {
  it('groups IPv4 addresses by /24, IPv4-mapped ones included', () => {
    expect(subnetOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(subnetOf('203.0.113.250')).toBe('203.0.113.0/24');
    expect(subnetOf('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(subnetOf('203.0.114.7')).toBe('203.0.114.0/24');
    expect(plainAddress('::FFFF:198.51.100.1')).toBe('198.51.100.1');
  });

  it('groups IPv6 addresses by /64, whatever their spelling', () => {
    expect(subnetOf('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(subnetOf('2001:0db8:0000:0001:ffff:0:0:1')).toBe('2001:db8:0:1::/64');
    expect(subnetOf('2001:db8:0:1:a:b:c:d%eth0')).toBe('2001:db8:0:1::/64');
    expect(subnetOf('2001:db8:0:2::5')).toBe('2001:db8:0:2::/64');
    expect(subnetOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(subnetOf('::1')).toBe('0:0:0:0::/64');
    expect(subnetOf('64:ff9b::198.51.100.1')).toBe('64:ff9b:0:0::/64');
  });

  it('knows loopback addresses', () => {
    expect(['127.0.0.1', '127.5.0.1', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['128.0.0.1', '::2', '2001:db8::1', '198.51.100.127'].map(isLoopback)).toEqual([false, false, false, false]);
  });

  it('keeps anything else as it is', () => {
    expect(subnetOf('unknown')).toBe('unknown');
  });
});
