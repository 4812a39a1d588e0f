package main

import "io"

func runMCPDiff(args []string, stdout, stderr io.Writer) int { return 2 }
