"""Sphinx configuration of the course site (built by ``python -m autograder site``, i.e. ``make site``).

The builder stages the executed release notebooks and this file into a temporary source folder; nothing
here reaches the network: MathJax is served from the site itself (``_static/mathjax``, copied from the
``django-static-mathjax`` package), and the search index is built for Chinese with jieba.
"""

project = "PyTorch：张量 (Tensor) 与自动微分 (Autograd)"
author = "pytorch-course"
language = "zh_CN"
html_search_language = "zh"

extensions = ["myst_nb"]
# The builder executed the notebooks already (with the answer and test cells' outputs removed).
nb_execution_mode = "off"
myst_enable_extensions = ["dollarmath", "amsmath"]
# Links in the home page to files that are not pages (none expected) must not fail the build silently.
myst_heading_anchors = 3

exclude_patterns = ["_build", "**.ipynb_checkpoints"]
html_theme = "furo"
html_title = project
html_static_path = ["_static"]
html_css_files = ["course.css"]
html_js_files = ["chinese-stemmer.js"]
html_extra_path = ["../extra"]
html_copy_source = False
html_show_sourcelink = False
# MathJax 3 from the site itself, never a CDN.
mathjax_path = "mathjax/tex-chtml.js"
