"""nbgrader settings for the course; `python -m autograder` copies this file into its temporary courses."""

from pathlib import Path

c = get_config()  # noqa: F821 (provided by traitlets when nbgrader loads this file)

c.CourseDirectory.course_id = "pytorch-tensors-autograd"
c.CourseDirectory.root = str(Path(__file__).resolve().parent)
c.CourseDirectory.source_directory = "source"
c.CourseDirectory.release_directory = "release"

# The stub a learner sees in place of `### BEGIN SOLUTION ... ### END SOLUTION`.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "请在这里作答 (YOUR ANSWER HERE)"

# Per-cell timeout. The capstone's training cell is the slowest cell (tens of seconds on a 2-core CPU);
# 300 s leaves room for slow laptops while still failing a runaway loop.
c.Execute.timeout = 300
c.Execute.interrupt_on_timeout = True
