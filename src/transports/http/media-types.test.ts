import { describe, expect, test } from 'vitest';
import { acceptable, isJsonContentType } from './media-types.js';

describe('acceptable', () => {
  test('what the SDK clients send accepts both', () => {
    expect(acceptable('application/json, text/event-stream')).toEqual({ json: true, sse: true });
    expect(acceptable('text/event-stream, application/json')).toEqual({ json: true, sse: true });
  });

  test('a missing Accept and wildcards accept everything (RFC 9110)', () => {
    expect(acceptable(undefined)).toEqual({ json: true, sse: true });
    expect(acceptable('')).toEqual({ json: true, sse: true });
    expect(acceptable('*/*')).toEqual({ json: true, sse: true });
    expect(acceptable('application/*, text/*')).toEqual({ json: true, sse: true });
  });

  test('one type alone, parameters, case, and q=0', () => {
    expect(acceptable('application/json')).toEqual({ json: true, sse: false });
    expect(acceptable('Text/Event-Stream; charset=utf-8')).toEqual({ json: false, sse: true });
    expect(acceptable('application/json, text/event-stream;q=0')).toEqual({ json: true, sse: false });
    expect(acceptable('application/json;q=0.5, text/event-stream;q=0.0')).toEqual({ json: true, sse: false });
    expect(acceptable('text/html')).toEqual({ json: false, sse: false });
  });
});

describe('isJsonContentType', () => {
  test('application/json with any parameters, in any case', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/jsonx')).toBe(false);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });
});
