"""Research-computing lines: cluster schedulers, container runners and programs that never end.

- A command run in an Apptainer/Singularity image (`singularity exec img.sif CMD`), a Shifter image or an
  enroot container acts on the host's home and working directory, so it is judged as run directly; the
  same holds for `srun`/`mpirun` given Slurm's and MPI's other valued options (`--gpus-per-node 1`, `--mca
  btl ^tcp`), whose values are no program.
- A batch job handed to a shared cluster's scheduler (`sbatch`, `qsub`, `bsub`), or one cancelled or held
  (`scancel`, `scontrol hold`), runs or changes beyond the policy; reading the queue is fine.
- Nextflow fetching a pipeline from its forge, Apptainer building or pulling an image: network.
- `top` without batch mode, `htop` without a number of rounds and `apptainer shell` wait for a key.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "singularity exec img.sif rm -rf ~", "destructive.recursive-delete"),
    ("posix", "apptainer exec --nv -B /data:/data img.sif pip install torch", "network.package-install"),
    ("posix", "shifter --image=docker:x/y:1 jupyter notebook --port=8080", "network.local-server"),
    ("posix", "enroot start pytorch rm -rf ~", "destructive.recursive-delete"),
    ("posix", "srun --gpus-per-node 1 --cpus-per-task 4 rm -rf ~", "destructive.recursive-delete"),
    ("posix", "srun --ntasks-per-node 1 --account abc rm -rf ~", "destructive.recursive-delete"),
    ("posix", "mpirun --mca btl ^tcp -np 2 rm -rf ~", "destructive.recursive-delete"),
    ("posix", "sbatch job.sh", "network.remote-service"),
    ("posix", 'sbatch --wrap "python train.py"', "network.remote-service"),
    ("posix", "qsub -I -l nodes=1", "network.remote-service"),
    ("posix", "bsub -n 4 ./run.sh", "network.remote-service"),
    ("posix", "scancel 123", "network.remote-service"),
    ("posix", "scontrol hold 123", "network.remote-service"),
    ("posix", "nextflow run nf-core/rnaseq -profile docker", "network.remote-service"),
    ("posix", "nextflow pull nf-core/rnaseq", "network.remote-service"),
    ("posix", "apptainer build --fakeroot x.sif x.def", "network.remote-service"),
    ("posix", "top", "unverifiable.terminal-program"),
    ("posix", "htop", "unverifiable.terminal-program"),
    ("posix", "apptainer shell img.sif", "unverifiable.terminal-program"),
]

ALLOWED = [
    ("posix", "singularity exec img.sif python train.py"),
    ("posix", "shifter --image=x/y:1 python a.py"),
    ("posix", "mpirun --mca btl ^tcp -np 2 ./a.out"),
    ("posix", "srun -n 4 python train.py"),
    ("posix", "srun --gpus-per-node 1 python train.py"),
    ("posix", "squeue -u $USER"),
    ("posix", "sacct -j 123"),
    ("posix", "sinfo"),
    ("posix", "scontrol show job 123"),
    ("posix", "sbatch --help"),
    ("posix", "nextflow run main.nf"),
    ("posix", "nextflow run workflows/main.nf -resume"),
    ("posix", "nextflow run ./pipeline"),
    ("posix", "top -b -n 1"),
    ("posix", "top -bn1 | head -20"),
    ("posix", "top -l 1"),
    ("posix", "./htop -n 5 -t"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_cluster_work_containers_and_endless_programs_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_the_same_programs_run_here_and_once_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
