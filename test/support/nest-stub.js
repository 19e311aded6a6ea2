// @nestjs/* for the service tier (test/service): Nest ships as ES modules, which Jest's
// loader cannot load, and the services need of it only its decorators (to be told
// apart by the container in test/support/service-tier.ts) and a few base classes. Every
// other export is a decorator factory that does nothing: `Get('x')(target, key, d)` is
// undefined, so a decorated class or method stays what it was.
require('reflect-metadata');

/** Where Inject(token) records the token of a constructor parameter (index → token). */
const INJECT_TOKENS = 'service-tier:inject';
/** Where Module(meta) records its metadata (imports, providers), as Nest reads it. */
const MODULE_META = 'service-tier:module';

const noDecorator = () => () => undefined;

class Logger {
  log() {}
  error() {}
  warn() {}
  debug() {}
  verbose() {}
  fatal() {}
}

class HttpException extends Error {
  constructor(response, status) {
    super(typeof response === 'string' ? response : 'Http Exception');
    this.response = response;
    this.status = status;
  }
  getStatus() {
    return this.status;
  }
  getResponse() {
    return this.response;
  }
}

const known = {
  __esModule: true,
  INJECT_TOKENS,
  MODULE_META,
  Module: (meta) => (target) => {
    Reflect.defineMetadata(MODULE_META, meta, target);
  },
  Inject: (token) => (target, _key, index) => {
    const tokens = Reflect.getOwnMetadata(INJECT_TOKENS, target) ?? new Map();
    tokens.set(index, token);
    Reflect.defineMetadata(INJECT_TOKENS, tokens, target);
  },
  Logger,
  HttpException,
  ValidationPipe: class ValidationPipe {},
  ParseIntPipe: class ParseIntPipe {},
  HttpStatus: new Proxy({}, { get: () => 0 }),
  // Mapped types (swagger) make a class from a class: the base itself will do.
  PartialType: (cls) => class extends cls {},
  OmitType: (cls) => class extends cls {},
  PickType: (cls) => class extends cls {},
  IntersectionType: (cls) => class extends cls {},
  getSchemaPath: (x) => `#/components/schemas/${typeof x === 'string' ? x : x?.name}`,
  forwardRef: (fn) => fn,
  // @nestjs/common/constants: where @HttpCode keeps a route's status (src/common/request.ts reads it).
  HTTP_CODE_METADATA: '__httpCode__',
  // A parameter decorator is made once and called per use: `Command()` is the decorator.
  createParamDecorator: () => noDecorator,
};

module.exports = new Proxy(known, {
  get: (target, name) => (name in target ? target[name] : typeof name === 'string' ? noDecorator : undefined),
});
