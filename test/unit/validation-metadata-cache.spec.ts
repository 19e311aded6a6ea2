import 'reflect-metadata';
import { IsInt, IsString, Min, validate, ValidateNested } from 'class-validator';
import { plainToInstance, Type } from 'class-transformer';
import { cacheValidationMetadata } from '../../src/common/validation-metadata-cache';

class Action {
  @IsString()
  type!: string;
}

class Base {
  @IsInt()
  @Min(1)
  n!: number;
}

class Body extends Base {
  @ValidateNested({ each: true })
  @Type(() => Action)
  actions!: Action[];
}

const options = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, stopAtFirstError: true };
const problems = async (plain: object) =>
  (await validate(plainToInstance(Body, plain), options)).flatMap((e) => [
    ...Object.keys(e.constraints ?? {}).map((c) => `${e.property}:${c}`),
    ...(e.children ?? []).flatMap((c) => (c.children ?? []).flatMap((g) => Object.keys(g.constraints ?? {}).map((k) => `${e.property}.${c.property}.${g.property}:${k}`))),
  ]);

describe("class-validator's rules kept per class", () => {
  beforeAll(() => cacheValidationMetadata());

  it('validates as before, inherited and nested rules included, on every call', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await problems({ n: 2, actions: [{ type: 'double' }] })).toEqual([]);
      expect(await problems({ n: 0, actions: [{ type: 'double' }] })).toEqual(['n:min']);
      expect(await problems({ n: 2, actions: [{ type: 7 }] })).toEqual(['actions.0.type:isString']);
      expect(await problems({ n: 2, actions: [], extra: 1 })).toEqual(['extra:whitelistValidation']);
    }
  });

  it('sees a rule registered after the first validation (the kept answer is dropped)', async () => {
    expect(await problems({ n: 2, actions: [{ type: 'take' }], note: 'x' })).toEqual(['note:whitelistValidation']);
    // A decorator applied late, as a module loaded after start would.
    IsString()(Body.prototype, 'note');
    expect(await problems({ n: 2, actions: [{ type: 'take' }], note: 'x' })).toEqual([]);
    expect(await problems({ n: 2, actions: [{ type: 'take' }], note: 3 })).toEqual(['note:isString']);
  });

  it('is installed once however often it is called', async () => {
    cacheValidationMetadata();
    cacheValidationMetadata();
    expect(await problems({ n: 0, actions: [], note: 'x' })).toEqual(['n:min']);
  });
});
