"""What a graded class leaves behind: journal, CSVs, gradebook, feedback pages, class report."""
