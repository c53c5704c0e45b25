/**
 * Which model the example picks from its environment. Nothing here calls a provider: an OpenAI
 * model object is made, never asked (with a key, the real provider is documented, not tested).
 */
import { MockLanguageModelV4 } from "ai/test";
import { chooseModel, DEFAULT_OPENAI_MODEL } from "../chooseModel";

const idOf = (model: unknown) =>
  typeof model === "object" && model !== null && "provider" in model && "modelId" in model
    ? `${String(model.provider)} ${String(model.modelId)}`
    : String(model);

test("no key: the scripted mock, and the line says how to use a real model", () => {
  const chosen = chooseModel({});
  expect(chosen.model).toBeInstanceOf(MockLanguageModelV4);
  expect(idOf(chosen.model)).toBe("scripted scripted-chat");
  expect(chosen.description).toBe("model: the scripted mock (set OPENAI_API_KEY to use OpenAI)");
  expect(chooseModel({ OPENAI_API_KEY: "   " }).model).toBeInstanceOf(MockLanguageModelV4); // a blank key is no key
});

test("OPENAI_API_KEY: OpenAI's model, gpt-4o-mini unless OPENAI_MODEL names another", () => {
  const chosen = chooseModel({ OPENAI_API_KEY: "sk-test" });
  expect(chosen.model).not.toBeInstanceOf(MockLanguageModelV4);
  expect(idOf(chosen.model)).toBe(`openai.responses ${DEFAULT_OPENAI_MODEL}`);
  expect(chosen.description).toBe("model: OpenAI gpt-4o-mini");
  const named = chooseModel({ OPENAI_API_KEY: "sk-test", OPENAI_MODEL: "gpt-4.1", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
  expect(idOf(named.model)).toBe("openai.responses gpt-4.1");
  expect(named.description).toBe("model: OpenAI gpt-4.1 at http://127.0.0.1:9/v1");
});

test("AI_CHAT_DELAY_MS paces the mock; a value that is not milliseconds is refused by name", () => {
  expect(chooseModel({ AI_CHAT_DELAY_MS: "0" }).model).toBeInstanceOf(MockLanguageModelV4);
  expect(() => chooseModel({ AI_CHAT_DELAY_MS: "fast" })).toThrow(
    new TypeError('expected AI_CHAT_DELAY_MS to be a number of milliseconds, 0 or more, but got "fast"'),
  );
  expect(() => chooseModel({ AI_CHAT_DELAY_MS: "-5" })).toThrow(/but got "-5"/);
});
