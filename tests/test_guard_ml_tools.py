"""Machine-learning tools' servers, services and prompts: how an ML tool is called says what it does. Model
inference servers (`vllm serve`, `python -m vllm.entrypoints.openai.api_server`, FastChat's and LLaVA's
controllers and workers, `litgpt serve`, `tritonserver`, `torchserve`) and the apps that serve notebooks and
dashboards to a browser (`panel serve`, `voila x.ipynb`, `marimo edit`, `chainlit run`, `gradio app.py`,
`label-studio`, `jupyter-lab`) are local servers; experiment trackers, model hubs and compute clouds reached
through their own clients (`wandb login`, `wandb sync`, `wandb agent`, `mlflow artifacts download`, `litgpt
download`, `modal run`, `sky launch`, `cog push`) are remote services; a setup script of another name told to
install (`python3 setup_cuda.py install`) installs as `python setup.py install` does; and a model chat or a
setup questionnaire at the terminal (`litgpt chat`, `python -m fastchat.serve.cli`, `accelerate config`) runs
what is typed there. Beside them, the same programs used to train, evaluate, convert, export or ask for help
stay allowed."""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    # inference servers, started as programs or as installed modules (in the background too)
    ("posix", "vllm serve meta-llama/Llama-3-8B --dtype auto", "network.local-server"),
    ("posix", "python -m vllm.entrypoints.openai.api_server --model x --port 8001", "network.local-server"),
    (
        "posix",
        "CUDA_VISIBLE_DEVICES=0,1 python -m vllm.entrypoints.openai.api_server --model x --port 8000 &",
        "network.local-server",
    ),
    ("posix", "python3 -m sglang.launch_server --model-path x --port 30000", "network.local-server"),
    ("posix", "python -m llama_cpp.server --model models/x.gguf", "network.local-server"),
    ("posix", "python3 -m fastchat.serve.controller", "network.local-server"),
    ("posix", "python3 -m fastchat.serve.model_worker --model-path lmsys/vicuna", "network.local-server"),
    ("posix", "python3 -m fastchat.serve.openai_api_server --port 8000", "network.local-server"),
    ("posix", "python3 -m fastchat.serve.gradio_web_server", "network.local-server"),
    ("posix", "python -m llava.serve.controller --host 0.0.0.0 --port 10000", "network.local-server"),
    ("posix", "python -m openrlhf.cli.serve_rm --port 5000", "network.local-server"),
    ("posix", "text-generation-launcher --model-id x --port 8080", "network.local-server"),
    ("posix", "lmdeploy serve api_server internlm/internlm2-chat-7b", "network.local-server"),
    ("posix", "tritonserver --model-repository=/models", "network.local-server"),
    ("posix", "torchserve --start --ncs --model-store model_store --models m.mar", "network.local-server"),
    ("posix", "mlflow models serve -m runs:/abc/model -p 5001", "network.local-server"),
    ("posix", "bentoml serve service:svc --reload", "network.local-server"),
    ("posix", "litgpt serve microsoft/phi-2", "network.local-server"),
    ("posix", "llamafactory-cli webui", "network.local-server"),
    ("posix", "llamafactory-cli api examples/inference/llama3.yaml", "network.local-server"),
    ("posix", "tabby serve --model StarCoder-1B --device cuda", "network.local-server"),
    ("posix", "cog serve", "network.local-server"),
    # notebooks, dashboards and labelling apps served to a browser
    ("posix", "panel serve app.ipynb --autoreload", "network.local-server"),
    ("posix", "bokeh serve --show app.py", "network.local-server"),
    ("posix", "voila notebooks/demo.ipynb", "network.local-server"),
    ("posix", "marimo edit notebook.py", "network.local-server"),
    ("posix", "marimo run app.py", "network.local-server"),
    ("posix", "uv run chainlit run qwen3-chat-interface.py", "network.local-server"),
    ("posix", "optuna-dashboard sqlite:///db.sqlite3", "network.local-server"),
    ("posix", "aim up", "network.local-server"),
    ("posix", "fiftyone app launch", "network.local-server"),
    ("posix", "label-studio", "network.local-server"),
    ("posix", "label-studio start my_project --init", "network.local-server"),
    ("posix", "prefect server start", "network.local-server"),
    ("posix", "wandb server start", "network.local-server"),
    ("posix", "ns-viewer --load-config outputs/x/config.yml", "network.local-server"),
    ("posix", "jupyter-lab", "network.local-server"),
    ("posix", "jupyter-notebook --no-browser --port 8888", "network.local-server"),
    ("posix", "python -m jupyterlab --no-browser", "network.local-server"),
    ("posix", "python -m notebook", "network.local-server"),
    ("posix", "gradio app.py", "network.local-server"),
    # trackers, hubs and clouds: logins, syncs, agents, downloads and deployments
    ("posix", "wandb login", "network.remote-service"),
    ("posix", "wandb sync wandb/offline-run-20240101_000000-abc", "network.remote-service"),
    ("posix", "wandb sweep sweep.yaml", "network.remote-service"),
    ("posix", "wandb agent user/proj/abc123", "network.remote-service"),
    ("posix", "wandb launch-agent -q default", "network.remote-service"),
    ("posix", "wandb artifact get user/proj/model:v0", "network.remote-service"),
    ("posix", "wandb init -p proj", "network.remote-service"),
    ("posix", "mlflow artifacts download --run-id abc --dst-path .", "network.remote-service"),
    ("posix", "prefect cloud login -k x", "network.remote-service"),
    ("posix", "neptune sync --path .", "network.remote-service"),
    ("posix", "comet upload /tmp/comet/x.zip", "network.remote-service"),
    ("posix", "clearml-init", "network.remote-service"),
    ("posix", "clearml-agent daemon --queue default", "network.remote-service"),
    ("posix", "litgpt download meta-llama/Meta-Llama-3-8B-Instruct", "network.remote-service"),
    ("posix", "ns-download-data nerfstudio --capture-name=poster", "network.remote-service"),
    ("posix", "modal run app.py", "network.remote-service"),
    ("posix", "modal deploy app.py", "network.remote-service"),
    ("posix", "replicate run owner/model prompt=x", "network.remote-service"),
    ("posix", "sky launch -c mycluster task.yaml", "network.remote-service"),
    ("posix", "cog push r8.im/user/model", "network.remote-service"),
    ("posix", "gradio deploy", "network.remote-service"),
    ("posix", "bentoml deploy .", "network.remote-service"),
    # a setup script of another name installing the project
    ("posix", "python3 setup_cuda.py install", "network.package-install"),
    ("posix", "python setup_cuda.py develop", "network.package-install"),
    # a model chat and a questionnaire at the terminal
    ("posix", "litgpt chat out/custom-model/final", "unverifiable.terminal-program"),
    ("posix", "llamafactory-cli chat examples/inference/llama3.yaml", "unverifiable.terminal-program"),
    ("posix", "python3 -m fastchat.serve.cli --model-path lmsys/vicuna", "unverifiable.terminal-program"),
    ("posix", "accelerate config", "unverifiable.terminal-program"),
]

ALLOWED = [
    # the same tools asked for help or their version, or used to train, evaluate, convert and export
    ("posix", "vllm --version"),
    ("posix", "vllm serve --help"),
    ("posix", "python -m vllm.entrypoints.openai.api_server --help"),
    ("posix", "python3 -m fastchat.model.apply_delta --base x --target y --delta z"),
    ("posix", "python3 -m fastchat.serve.huggingface_api --model-path x"),
    ("posix", "python -m llava.eval.model_vqa --model-path x"),
    ("posix", "text-generation-launcher --help"),
    ("posix", "lmdeploy convert internlm2 x"),
    ("posix", "tritonserver --version"),
    ("posix", "torchserve --stop"),
    ("posix", "mlflow models predict -m runs:/x/model -i in.csv"),
    ("posix", "mlflow run . --env-manager local"),
    ("posix", "bentoml build"),
    ("posix", "litgpt finetune checkpoints/x --data x"),
    ("posix", "litgpt generate checkpoints/x --prompt hi"),
    ("posix", "litgpt serve --help"),
    ("posix", "llamafactory-cli train examples/train_lora/x.yaml"),
    ("posix", "llamafactory-cli export examples/merge_lora/x.yaml"),
    ("posix", "tabby --help"),
    ("posix", "cog init"),
    ("posix", "panel convert app.py --to pyodide-worker"),
    ("posix", "bokeh info"),
    ("posix", "voila --version"),
    ("posix", "marimo export html notebook.py -o out.html"),
    ("posix", "marimo convert nb.ipynb -o nb.py"),
    ("posix", "marimo check notebook.py"),
    ("posix", "chainlit --version"),
    ("posix", "optuna-dashboard --version"),
    ("posix", "aim init"),
    ("posix", "fiftyone zoo datasets list"),
    ("posix", "label-studio --version"),
    ("posix", "label-studio init my_project"),
    ("posix", "prefect version"),
    ("posix", "ns-train nerfacto --data data/nerfstudio/poster"),
    ("posix", "jupyter-lab --version"),
    ("posix", "jupyter-lab build"),
    ("posix", "jupyter-notebook list"),
    ("posix", "python -m jupyterlab --version"),
    ("posix", "jupyter nbconvert --execute --inplace x.ipynb"),
    ("posix", "gradio --help"),
    ("posix", "gradio cc create MyComponent"),
    ("posix", "uv run datasette fixtures.db"),
    # the tracker switched off or on, asked for its settings, or its local cache cleaned
    ("posix", "wandb offline"),
    ("posix", "wandb online"),
    ("posix", "wandb disabled"),
    ("posix", "wandb status"),
    ("posix", "wandb --version"),
    ("posix", "wandb login --help"),
    ("posix", "wandb artifact cache cleanup 1GB"),
    ("posix", "mlflow artifacts --help"),
    ("posix", "prefect cloud --help"),
    ("posix", "neptune status"),
    ("posix", "comet offline x.zip"),
    ("posix", "clearml-agent --help"),
    ("posix", "modal --version"),
    ("posix", "sky --version"),
    ("posix", "replicate --help"),
    ("posix", "cog --version"),
    ("posix", "dvc repro"),
    # setup scripts building in place
    ("posix", "python setup_cuda.py build_ext --inplace"),
    ("posix", "python setup.py build_ext --inplace"),
    # accelerate's configuration written unasked, its launcher and its checks
    ("posix", "accelerate config default"),
    ("posix", "accelerate config default --config_file ./accelerate.yaml"),
    ("posix", "accelerate config update --config_file ./accelerate.yaml"),
    ("posix", "accelerate config --help"),
    ("posix", "accelerate launch train.py --config configs/x.yaml"),
    ("posix", "accelerate env"),
    ("posix", "python -m fastchat.serve.cli --help"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_ml_servers_services_and_prompts_are_blocked(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_ml_tools_used_locally_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
