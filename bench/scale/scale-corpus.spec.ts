import { parseArgs, UsageError } from '../lib/args';
import { scaleIds, scaleIndexOf, scaleMemories, scaleMemoryId } from './scale-corpus';
import { maintenanceWorkMemFor } from './vector-index';
import { corpusMemory } from '../search/corpus';

describe('scale corpus ids', () => {
  it('maps each index to a version-4-shaped id and back', () => {
    for (const index of [0, 1, 2, 999_999, 1_000_000, 123_456_789, 2 ** 48 - 1]) {
      const id = scaleMemoryId(index);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(scaleIndexOf(id)).toBe(index);
    }
  });

  it('spreads consecutive indices over the key space (random B-tree order, as the product ids)', () => {
    const prefixes = new Set(Array.from({ length: 1000 }, (_, i) => scaleMemoryId(i).slice(0, 2)));
    expect(prefixes.size).toBeGreaterThan(200);
    const ids = new Set(Array.from({ length: 100_000 }, (_, i) => scaleMemoryId(i)));
    expect(ids.size).toBe(100_000);
  });

  it('maps ids it did not make to undefined', () => {
    const id = scaleMemoryId(42);
    const tampered = (id[0] === 'f' ? '0' : 'f') + id.slice(1);
    expect(scaleIndexOf(tampered)).toBeUndefined();
    expect(scaleIndexOf('6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b')).toBeUndefined();
    expect(scaleIndexOf('not an id')).toBeUndefined();
  });

  it('rejects indices outside what the id can carry', () => {
    expect(() => scaleMemoryId(-1)).toThrow(RangeError);
    expect(() => scaleMemoryId(2 ** 48)).toThrow(RangeError);
    expect(() => scaleMemoryId(1.5)).toThrow(RangeError);
  });

  it('generates memories and ids on demand, within the count only', () => {
    const memories = scaleMemories(3);
    expect(memories.length).toBe(3);
    expect(memories.at(2)).toEqual(corpusMemory(2));
    expect(memories.at(3)).toBeUndefined();
    expect(memories.at(-1)).toBeUndefined();
    expect(scaleIds(3).at(1)).toBe(scaleMemoryId(1));
    expect(scaleIds(3).at(3)).toBeUndefined();
  });
});

describe('maintenanceWorkMemFor', () => {
  it('gives the graph 3 KiB a vector, between 64 MB and 8 GB', () => {
    expect(maintenanceWorkMemFor(1_000)).toBe('64MB');
    expect(maintenanceWorkMemFor(1_000_000)).toBe('2930MB');
    expect(maintenanceWorkMemFor(10_000_000)).toBe('8192MB');
  });
});

describe('scale flags', () => {
  const parsed = (argv: string[]) => {
    const options = parseArgs(argv);
    if (options === 'help') throw new Error('help');
    return options;
  };

  it('defaults to a million memories, a 100k local-model subset and c=16', () => {
    const options = parsed([]);
    expect([options.scaleMemories, options.scaleModelSubset, options.scaleConcurrency]).toEqual([
      1_000_000, 100_000, 16,
    ]);
  });

  it('takes the sizes of a smoke run', () => {
    const options = parsed(['--only', 'scale', '--scale-memories', '20000', '--scale-model-subset=0']);
    expect(options.only).toEqual(['scale']);
    expect([options.scaleMemories, options.scaleModelSubset]).toEqual([20_000, 0]);
  });

  it('rejects sizes it cannot run', () => {
    expect(() => parsed(['--scale-memories', '10'])).toThrow(UsageError);
    expect(() => parsed(['--scale-memories', '1e9'])).toThrow(UsageError);
    expect(() => parsed(['--scale-model-subset', '50'])).toThrow(/at least 100/);
    expect(() => parsed(['--scale-concurrency', '1'])).toThrow(UsageError);
  });
});
