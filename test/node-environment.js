// @ts-check
/**
 * Jest's node environment with the host's typed-array constructors. Jest runs each test file in
 * its own realm, so an `instanceof Float32Array` inside a library loaded there fails for arrays a
 * native addon made in the host realm: ONNX Runtime's output tensors (the local embedding
 * model) are such arrays. Typed arrays carry no state between files, so sharing them is safe.
 */
const { TestEnvironment } = require('jest-environment-node');

const TYPED_ARRAYS = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class CairnNodeEnvironment extends TestEnvironment {
  /** @param {ConstructorParameters<typeof TestEnvironment>} args */
  constructor(...args) {
    super(...args);
    for (const name of TYPED_ARRAYS) this.global[name] = globalThis[name];
  }
}

module.exports = CairnNodeEnvironment;
