import { describe, expect, it } from 'vitest';
import { cosine } from './vectors.ts';

describe('cosine', () => {
  it('is 1 for vectors of the same direction, whatever their lengths', () => {
    expect(cosine(Float32Array.of(1, 2, 3), Float32Array.of(2, 4, 6))).toBeCloseTo(1, 6);
  });

  it('is 0 for vectors with nothing in common and −1 for opposite ones', () => {
    expect(cosine(Float32Array.of(1, 0), Float32Array.of(0, 5))).toBe(0);
    expect(cosine(Float32Array.of(1, -2), Float32Array.of(-1, 2))).toBeCloseTo(-1, 6);
  });

  it('gives the angle between vectors in between', () => {
    expect(cosine(Float32Array.of(1, 0), Float32Array.of(1, 1))).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('is 0 for vectors of different lengths (two models) and for a zero vector, never NaN', () => {
    expect(cosine(Float32Array.of(1, 0, 0), Float32Array.of(1, 0))).toBe(0);
    expect(cosine(Float32Array.of(0, 0), Float32Array.of(1, 1))).toBe(0);
    expect(cosine(new Float32Array(0), new Float32Array(0))).toBe(0);
  });
});
