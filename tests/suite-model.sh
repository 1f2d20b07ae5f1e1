#!/usr/bin/env bash
# The SPIN model of the shared-memory runtime's protocol (model/,
# docs/runtime-shm.md "Model checking"): one line per verification, each
# scenario verified and each deliberately broken variant rejected.  The
# same as `make model`.
cd "$(dirname "$0")/.."
model/verify.sh "${MEDLEY_BUILD:-build}/model"
exit 0
