package cliflags

import "flag"

// ParseInterspersed parses fs from args with flags before and after the
// positional arguments, which it returns in order ("gen PATH -o DIR" and
// "gen -o DIR PATH" mean the same).
func ParseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
